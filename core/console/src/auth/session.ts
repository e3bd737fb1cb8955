import { BehaviorSubject, type Observable } from 'rxjs';
import type { SessionService, SessionState } from '@linguaport/sdk/console';
import { Cookies, SessionKeys, readCookie, removeCookie, sessionStore, writeCookie } from './storage.js';
import type { Department, Role, UserInfo } from './types.js';

const EMPTY: SessionState = { user: null, departmentId: null, departmentName: null, roleNames: [] };

/**
 * The signed-in user: token (cookie `lp_token`), user info, chosen department (cookie plus session
 * storage, spec 01 sections 3 and 4). Menus and buttons live in PermissionStore.
 */
export class SessionStore implements SessionService {
  private info: UserInfo | null = null;
  private readonly state = new BehaviorSubject<SessionState>(EMPTY);

  get token(): string | null {
    return readCookie(Cookies.token);
  }

  setToken(token: string): void {
    writeCookie(Cookies.token, token, 7);
  }

  get userInfo(): UserInfo | null {
    return this.info;
  }

  get departments(): Department[] {
    return this.info?.departmentRoleBos.map((b) => b.department) ?? [];
  }

  /** The department chosen earlier: session storage first, then the cookie copied into it. */
  get departmentId(): number | null {
    const store = sessionStore();
    let raw = store?.getItem(SessionKeys.departmentId) ?? null;
    if (raw === null) {
      raw = readCookie(Cookies.departmentId);
      if (raw !== null) store?.setItem(SessionKeys.departmentId, raw);
    }
    const id = raw === null || raw === '' ? NaN : Number(raw);
    return Number.isFinite(id) ? id : null;
  }

  setUserInfo(info: UserInfo): void {
    this.info = info;
    sessionStore()?.setItem(SessionKeys.userId, String(info.user.id));
    this.publish();
  }

  chooseDepartment(id: number): void {
    writeCookie(Cookies.departmentId, String(id));
    sessionStore()?.setItem(SessionKeys.departmentId, String(id));
    this.publish();
  }

  /** Logout and session expiry: token, user state, department cookie and all session storage. */
  reset(): void {
    removeCookie(Cookies.token);
    removeCookie(Cookies.departmentId);
    sessionStore()?.clear();
    this.info = null;
    this.publish();
  }

  rolesOf(departmentId: number | null): Role[] {
    return this.info?.departmentRoleBos.find((b) => b.department.id === departmentId)?.roles ?? [];
  }

  current(): SessionState {
    return this.state.getValue();
  }

  changes(): Observable<SessionState> {
    return this.state.asObservable();
  }

  private publish(): void {
    if (!this.info) {
      this.state.next(EMPTY);
      return;
    }
    const departmentId = this.departmentId;
    const dept = this.departments.find((d) => d.id === departmentId) ?? null;
    const u = this.info.user;
    this.state.next({
      user: { id: u.id, username: u.username, realName: u.realName, userType: u.userType, apiKey: u.apiKey },
      departmentId: dept?.id ?? null,
      departmentName: dept?.departmentName ?? null,
      roleNames: this.rolesOf(dept?.id ?? null).map((r) => r.roleName),
    });
  }
}
