/** Cookie and session-storage names (spec 01 section 9). */
export const Cookies = {
  token: 'lp_token',
  departmentId: 'departmentId',
  locale: 'locale',
  sidebar: 'sidebarStatus',
} as const;

export const SessionKeys = {
  title: 'title',
  userId: 'userId',
  departmentId: 'departmentId',
  routersMenu: 'routersmenu',
  buttonMenu: 'buttonmenu',
  systemConfig: 'systemConfigPermissionMenus',
} as const;

export function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  for (const part of document.cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}

export function writeCookie(name: string, value: string, days = 30): void {
  if (typeof document === 'undefined') return;
  const expires = new Date(Date.now() + days * 86_400_000).toUTCString();
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; expires=${expires}; SameSite=Lax`;
}

export function removeCookie(name: string): void {
  if (typeof document === 'undefined') return;
  document.cookie = `${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}

export function sessionStore(): Storage | null {
  return typeof sessionStorage === 'undefined' ? null : sessionStorage;
}
