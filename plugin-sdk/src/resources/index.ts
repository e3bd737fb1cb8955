/**
 * Language resources shared by the term-base and memory areas (and the CAT and corpus areas that use
 * them): libraries with ownership and per-user use and edit rights, entries with review, history and
 * imports. Server side; the console side is under `@linguaport/sdk/console`.
 */
export {};
