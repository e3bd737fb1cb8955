import type { i18n as I18n } from 'i18next';
import type { Registry } from '@linguaport/sdk/shared';
import type { HttpClient } from '../http/client.js';
import type { RegistryStore } from '../plugins/registry.js';
import { encryptPassword } from './crypto.js';
import { clearLoginExpired } from './expired.js';
import { decide, departmentStep, loginRedirect, type GuardDecision, type GuardState } from './guard.js';
import { firstLeafTarget, reachableTree } from './permissions.js';
import type { PermissionStore } from './permissions.js';
import type { SessionStore } from './session.js';
import type { PermissionMenuList, UserInfo } from './types.js';

/** Tries and pause when the server asks to wait for a sign-in key (it says about a second). */
const KEY_RETRIES = 3;
const KEY_RETRY_MS = 1_500;

/**
 * The effectful half of the navigation guard and the sign-in calls: fetch user info, the menu
 * list and the registry when `decide` says `load`, then decide again.
 */
export class AccessService {
  constructor(
    private readonly http: HttpClient,
    private readonly session: SessionStore,
    private readonly permissions: PermissionStore,
    private readonly registry: RegistryStore,
    private readonly i18n: I18n,
    private readonly showError: (message: string) => void,
  ) {}

  /** The reachable menu tree: entries a plugin, a custom page or a child makes useful. */
  menuTree() {
    return reachableTree(this.permissions.menuTree, (p) => this.registry.route(p) !== undefined);
  }

  guardState(): GuardState {
    const tree = this.menuTree();
    return {
      hasToken: this.session.token !== null,
      rolesLoaded: this.permissions.rolesLoaded,
      permitted: (p) => this.permissions.hasRoute(p),
      firstPath: firstLeafTarget(tree),
      detailParents: this.registry.detailParents(),
      known: (p) => this.registry.route(p) !== undefined || this.registry.exists(p) || this.permissions.hasRoute(p) || this.registry.wasKnown(p),
    };
  }

  async resolve(path: string, fullPath: string): Promise<Exclude<GuardDecision, { action: 'load' }>> {
    const first = decide(this.guardState(), path, fullPath);
    if (first.action !== 'load') return first;
    try {
      const info = await this.http.get<UserInfo>('/user/getUserInfoByToken');
      if (!info?.user) throw new Error(this.i18n.t('auth.emptyUserInfo', { ns: 'core' }));
      this.session.setUserInfo(info);
      // A remembered department the user no longer belongs to counts as none chosen.
      const remembered = this.session.departmentId;
      const chosen = info.departmentRoleBos?.some((b) => b.department.id === remembered) ? remembered : null;
      const step = departmentStep(path, chosen, fullPath);
      if (step) return step as Exclude<GuardDecision, { action: 'load' }>;
      const departmentId = chosen!;
      const [menus, registry] = await Promise.all([
        this.http.get<PermissionMenuList>('/permissionMenu/getPermissionMenu', { params: { userId: info.user.id, departmentId } }),
        this.http.get<Registry>('/plugins/registry'),
      ]);
      if (!menus?.menusPermissionMenus?.length) {
        this.showError(this.i18n.t('auth.emptyPermissions', { ns: 'core' }));
        await this.logout();
        return { action: 'redirect', to: '/login' };
      }
      this.registry.set(registry);
      this.permissions.set(menus);
      this.session.chooseDepartment(departmentId);
      const next = decide(this.guardState(), path, fullPath);
      return next.action === 'load' ? { action: 'redirect', to: '/404' } : next;
    } catch (error) {
      // Navigation failure (spec 01 section 8): show it, reset the token, back to sign-in.
      const code = (error as { code?: number }).code;
      if (code !== 601) this.showError((error as Error).message || this.i18n.t('app.hasError', { ns: 'core' }));
      this.session.reset();
      this.permissions.clear();
      return { action: 'redirect', to: loginRedirect(fullPath) };
    }
  }

  /** Fetch the menu list again (after a language switch or a permission change) without a new login. */
  async reloadMenus(): Promise<void> {
    const userId = this.session.userInfo?.user.id;
    const departmentId = this.session.departmentId;
    if (!userId || !departmentId) return;
    const [menus, registry] = await Promise.all([
      this.http.get<PermissionMenuList>('/permissionMenu/getPermissionMenu', { params: { userId, departmentId } }),
      this.http.get<Registry>('/plugins/registry'),
    ]);
    this.registry.set(registry);
    this.permissions.set(menus);
  }

  /**
   * A one-time key for encrypting the password. The server gives one address only so many a minute
   * and otherwise says to wait a moment (429): a shared office address or a quick second try gets its
   * key after a short wait instead of an error.
   */
  async fetchPublicKey(): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.http.get<string>('/user/getOnePublicKey', { silent: attempt < KEY_RETRIES });
      } catch (err) {
        if ((err as { status?: number }).status !== 429 || attempt >= KEY_RETRIES) throw err;
        await new Promise((r) => setTimeout(r, KEY_RETRY_MS));
      }
    }
  }

  /**
   * Resolves with the login envelope so the page can react to 4014; rejects on bad credentials.
   * `symbol` picks a directory domain (empty: the local accounts); `ticket` is the slider puzzle's.
   */
  async login(username: string, encryptedPassword: string, publicKey: string, extra: { symbol?: string; ticket?: string } = {}) {
    const form = new FormData();
    form.set('username', username.trim());
    form.set('password', encryptedPassword);
    form.set('publicKey', publicKey);
    form.set('symbol', extra.symbol ?? '');
    if (extra.ticket) form.set('ticket', extra.ticket);
    const env = await this.http.request<{ token: string; userId: number }>({ method: 'POST', url: '/login', data: form });
    if (env.code === 200 && env.data?.token) this.startWithToken(env.data.token);
    return env;
  }

  /** A token from guest login, single sign-on or quick access starts a fresh session. */
  startWithToken(token: string): void {
    clearLoginExpired();
    // A fresh sign-in starts without roles or a remembered department of another user.
    this.session.reset();
    this.permissions.clear();
    this.session.setToken(token);
  }

  /**
   * Password change with both passwords sealed by one one-time key. Signed in, the session names the
   * account; after a 4014 at login there is no session and `username` names it.
   */
  async changePassword(oldPassword: string, newPassword: string, username?: string): Promise<void> {
    const publicKey = await this.fetchPublicKey();
    const [o, n] = await Promise.all([encryptPassword(oldPassword, publicKey), encryptPassword(newPassword, publicKey)]);
    await this.http.get('/user/updatePasswordForced', {
      params: { oldPassword: o, newPassword: n, publicKey, ...(username ? { username: username.trim() } : {}) },
      silent: true,
    });
  }

  async switchDepartment(departmentId: number): Promise<void> {
    const { token } = await this.http.post<{ token: string }>('/user/switchDepartment', { departmentId });
    this.session.setToken(token);
    this.session.chooseDepartment(departmentId);
    this.permissions.clear();
  }

  async logout(): Promise<void> {
    try {
      if (this.session.token) await this.http.post('/logout', undefined, { silent: true });
    } catch {
      // The session ends locally whatever the server says.
    }
    this.session.reset();
    this.permissions.clear();
    this.registry.clear();
    clearLoginExpired();
  }
}
