/**
 * Memories (libraries) and who may use and edit them: the SDK's library kit (`@linguaport/sdk/resources`)
 * over the `tm_` tables. Ownership, per-user rights, defaults and the delete guard live there, shared
 * with the term bases.
 */
export { OWNERSHIPS, LibraryAccess as Libraries, rightsOf, type Ownership, type LibraryRow, type LibraryRights, type LibraryUsageCheck } from '@linguaport/sdk/resources';
