/**
 * The navigation guard of spec 01 section 2.6 as a pure decision. The effectful part
 * (access.ts) fetches user info and menus when `decide` answers `load`, then asks again.
 */
export const PUBLIC_PATHS = ['/login', '/sso', '/quickAccess', '/loginSelect', '/401', '/404'] as const;

/** Kernel pages inside the shell that need a session but no menu grant. */
export const SIGNED_IN_PATHS: readonly string[] = ['/custom', '/messages'];

export function isPublicPath(path: string): boolean {
  return (PUBLIC_PATHS as readonly string[]).includes(path) || path === '/redirect' || path.startsWith('/redirect/');
}

export interface GuardState {
  hasToken: boolean;
  rolesLoaded: boolean;
  /** The permitted-menu check (PermissionStore.hasRoute). */
  permitted(path: string): boolean;
  /** Where a signed-in user lands; null when no menu leads anywhere (the shell shows its empty state). */
  firstPath: string | null;
  /** Detail route -> parent menu path, from the registry (RegistryRoute.parent). */
  detailParents: Readonly<Record<string, string>>;
  /** Paths a route exists for (registry routes and permitted menu paths). */
  known(path: string): boolean;
}

export type GuardDecision =
  | { action: 'pass' }
  /** `reason` 'forbidden': the path exists but the user's roles do not permit it (the shell says so). */
  | { action: 'redirect'; to: string; reason?: 'forbidden' }
  /** Signed in, roles not loaded yet: fetch user info and menus, then decide again. */
  | { action: 'load' }
  /** /sso: reload the page at the same address. */
  | { action: 'reload' };

const pass: GuardDecision = { action: 'pass' };
const to = (path: string): GuardDecision => ({ action: 'redirect', to: path });

export function loginRedirect(fullPath: string): string {
  return `/login?redirect=${encodeURIComponent(fullPath)}`;
}

/** `path` is the pathname; `fullPath` adds the query, kept in the login redirect. */
export function decide(state: GuardState, path: string, fullPath: string = path): GuardDecision {
  if (path === '/sso') return { action: 'reload' };
  if (!state.hasToken) return isPublicPath(path) ? pass : to(loginRedirect(fullPath));

  if (!state.rolesLoaded) return isPublicPath(path) ? pass : { action: 'load' };

  const home = state.firstPath ?? '/';
  if (path === '/login' || path === '/') return home === path ? pass : to(home);
  if (isPublicPath(path)) return pass;
  // Custom pages are opened from type-4 menu entries and carry their own address; every signed-in
  // user reads their own messages, whatever their roles.
  if (SIGNED_IN_PATHS.includes(path)) return pass;
  if (!state.known(path)) return to('/404');
  const parent = state.detailParents[path];
  const forbidden: GuardDecision = { action: 'redirect', to: home, reason: 'forbidden' };
  if (parent !== undefined) return state.permitted(parent) ? pass : forbidden;
  return state.permitted(path) ? pass : forbidden;
}

/** After user info is fetched (spec 01 2.6, roles not loaded): where the department step leads. */
export function departmentStep(path: string, departmentId: number | null, fullPath: string = path): GuardDecision | null {
  if (path === '/loginSelect') return pass;
  if (departmentId === null) return to(path === '/' ? '/loginSelect' : `/loginSelect?redirect=${encodeURIComponent(fullPath)}`);
  return null;
}
