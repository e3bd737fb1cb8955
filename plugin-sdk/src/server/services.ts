/**
 * Typed services between plugins. The providing area exports a token with the service's type; the
 * consuming area imports only the token's type and name (from a small shared module or the SDK),
 * never the provider's code. The kernel checks both sides against the manifests: a plugin provides
 * only what its `provides` lists and uses only what its `consumes` lists, and a provider starts before
 * its consumers.
 *
 *   export const termLookup = defineService<TermLookup>('term.lookup');
 *   ctx.services.provide(termLookup, { find: ... });          // in the term plugin
 *   const terms = ctx.services.use(termLookup);               // in a consumer
 */
export interface ServiceToken<T> {
  readonly name: string;
  /** Carries the type only; never set. */
  readonly __type?: T;
}

export function defineService<T>(name: string): ServiceToken<T> {
  return Object.freeze({ name });
}

export interface PluginServices {
  /** Offers a service this plugin's manifest lists under `provides`. */
  provide<T>(token: ServiceToken<T>, implementation: T): void;
  /** A service this plugin's manifest lists under `consumes`; throws when a required one is missing. */
  use<T>(token: ServiceToken<T>): T;
  /** An optional service, or null when no plugin provides it now. */
  find<T>(token: ServiceToken<T>): T | null;
}

/**
 * Who a service call is for, when the service guards a user's data (memories, term bases): the user,
 * and the department they work in now (a route's `caller.departmentId`; left out, their first one).
 * The provider reads the rest (super administrator, membership) from the kernel's user directory, so
 * a consumer cannot widen what the user may reach.
 */
export interface ServiceCaller {
  userId: number;
  departmentId?: number | null;
}
