import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ApiError, say, type Logger, type RouteDefinition } from '@linguaport/sdk/server';
import { Codes, idSchema, seededName } from '@linguaport/sdk/shared';
import { activePermissions, buildMenuTree, buttonEntries, grantedPermissions, menuNodeSchema, rolesIn, systemConfigEntries } from '../access/grants.js';
import { can } from '../access/passwords.js';
import { createSession, revokeSession, type Clock, type SessionCaller } from '../access/sessions.js';
import { localeOf } from '../http/locale.js';
import { accountRoutes, departmentRef, sessionAnswer } from './account-routes.js';
import { signInAdminRoutes } from './admin-routes.js';
import type { ScopedCaller } from './caller.js';
import { listSymbols } from './directory.js';
import { issuePublicKey, KeyAllowance, KeyPool, KeyPoolBusy } from './keys.js';
import { passwordLogin } from './login.js';
import type { Secret } from './secret.js';
import { createPuzzle, verifyPuzzle } from './slider.js';
import { ssoRoutes } from './sso.js';
import { departmentsOf, userInfo } from './user-info.js';
import type { DeclaredList } from '../plugins/declared-lists.js';
import type { KernelTables } from '../db/schema.js';

/** The kernel's sign-in, user-info, menu and company-config calls (spec 01 sections 7.1-7.3). */

export interface AuthRouteDeps {
  db: Kysely<KernelTables>;
  /** DATA_DIR/secret.key: seals API keys and outside-server secrets, signs quick-access links. */
  secret: Secret;
  now: Clock;
  logger: Logger;
  /** Called when a session ends (logout, department switch): open sockets of it are closed. */
  onSessionEnded(tokenHash: string): void;
  /** One-time key pairs made ahead, and each address's allowance of them (made here when absent). */
  keyPool?: KeyPool;
  keyAllowance?: KeyAllowance;
  /** The API key scopes a key may be granted: the kernel's and the enabled plugins' (the kernel's alone when absent). */
  apiKeyScopes?: DeclaredList;
}

// base64 has no spaces: a '+' that a urlencoded form turned into a space is put back.
const base64Field = z.string().min(1).transform((s) => s.replace(/ /g, '+'));

const loginBody = z.object({
  username: z.string().trim().min(1),
  password: base64Field,
  publicKey: base64Field,
  symbol: z.string().optional(),
  /** The slider puzzle's ticket (POST /captcha/slider/verify), needed while LANDING_SLIDER is on. */
  ticket: z.string().optional(),
});

const id = idSchema;

/** The user-info answer (`userInfo`): the user, and per department their roles. */
const userInfoAnswer = z.object({
  user: z.object({
    id: z.number().int(),
    userId: z.number().int(),
    username: z.string(),
    realName: z.string().nullable(),
    userType: z.number().int().describe('0 local, 1 directory, 2 single sign-on, 3 guest'),
    apiKey: z.string().nullable().describe("Only in the user's own console session"),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    locale: z.string().nullable(),
  }),
  departmentRoleBos: z.array(z.object({ department: departmentRef, roles: z.array(z.object({ id: z.number().int(), roleName: z.string(), path: z.string().nullable().describe("The role's first permitted screen") })) })),
  currentDepartmentId: z.number().int().nullable(),
});

export function authRoutes(deps: AuthRouteDeps): RouteDefinition[] {
  const { db, now, logger } = deps;
  const keyPool = deps.keyPool ?? new KeyPool();
  const keyAllowance = deps.keyAllowance ?? new KeyAllowance();

  return [
    {
      method: 'GET',
      url: '/user/getOnePublicKey',
      access: 'public',
      summary: 'Get a one-time public key to seal a password',
      response: { data: z.string().describe('base64 of the SPKI DER encoding of an RSA public key, good for one sealing'), errors: [429] },
      async handler({ ip, headers, header }) {
        const wait = keyAllowance.take(ip, now());
        const tooMany = (seconds: number) => {
          header('retry-after', String(seconds));
          return new ApiError(Codes.TOO_MANY, say(headers, `请求公钥过于频繁，请 ${seconds} 秒后再试`, `Too many keys asked for from this address: try again in ${seconds} second(s)`), { retryAfterSeconds: seconds });
        };
        if (wait) throw tooMany(wait);
        try {
          return await issuePublicKey(db, keyPool, now());
        } catch (err) {
          if (err instanceof KeyPoolBusy) throw tooMany(1);
          throw err;
        }
      },
    },
    {
      method: 'POST',
      url: '/login',
      access: 'public',
      summary: 'Sign in',
      response: { data: sessionAnswer, errors: [304, 503, 4014] },
      schema: { body: loginBody },
      handler: ({ body, ip }) => passwordLogin(deps, body, ip),
    },
    {
      method: 'POST',
      url: '/logout',
      access: 'signed-in',
      summary: 'Sign out',
      response: { data: z.null() },
      async handler({ caller }) {
        const session = caller as SessionCaller;
        await revokeSession(db, session.tokenHash, now());
        deps.onSessionEnded(session.tokenHash);
        return null;
      },
    },
    {
      method: 'GET',
      url: '/user/getUserInfoByToken',
      access: 'signed-in',
      summary: "Get the signed-in user's profile",
      response: { data: userInfoAnswer.nullable() },
      // The API key is unsealed for the member's own session only: not for the guest, a quick-access page or a key.
      handler: ({ caller, headers }) => userInfo(db, caller!.userId, caller!.departmentId, caller!.via === 'session' ? deps.secret : null, localeOf(headers)),
    },
    {
      method: 'GET',
      url: '/user/getUserInfo/:id',
      access: 'signed-in',
      summary: "Get a user's profile",
      response: { data: userInfoAnswer, errors: [404] },
      schema: { params: z.object({ id }) },
      async handler({ caller, params, headers }) {
        // user:list is the user plugin's list permission: whoever may list users may open one.
        if (params.id !== caller!.userId && !can(caller, 'user:view') && !can(caller, 'user:list')) {
          throw new ApiError(Codes.FORBIDDEN, { 'zh-CN': '无权限：查看其他用户需要 user:view（或 user:list）权限', 'en-US': 'Permission denied: viewing another user needs the permission user:view (or user:list)' });
        }
        const own = params.id === caller!.userId;
        const info = await userInfo(db, params.id, own ? caller!.departmentId : null, own && caller!.via === 'session' ? deps.secret : null, localeOf(headers));
        if (!info) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `找不到编号为 ${params.id} 的用户`, 'en-US': `No user with id ${params.id}` });
        return info;
      },
    },
    {
      method: 'POST',
      url: '/user/switchDepartment',
      access: 'signed-in',
      summary: 'Switch department',
      response: { data: z.object({ token: z.string().describe('The new session; the old one ends') }) },
      schema: { body: z.object({ departmentId: id }) },
      async handler({ caller, body }) {
        const session = caller as ScopedCaller;
        if (session.scopePath) throw new ApiError(Codes.FORBIDDEN, { 'zh-CN': '快捷访问会话仅限其页面，不能切换部门', 'en-US': 'A quick-access session is limited to its page and cannot switch departments' });
        const departments = await departmentsOf(db, session.userId);
        if (!departments.some((d) => d.id === body.departmentId)) {
          throw new ApiError(Codes.FORBIDDEN, { 'zh-CN': `您不是部门 ${body.departmentId} 的成员`, 'en-US': `You are not a member of department ${body.departmentId}` });
        }
        const at = now();
        const token = await createSession(db, session.userId, body.departmentId, at);
        await revokeSession(db, session.tokenHash, at);
        deps.onSessionEnded(session.tokenHash);
        return { token };
      },
    },
    {
      method: 'GET',
      url: '/permissionMenu/getPermissionMenu',
      access: 'signed-in',
      summary: "Get a user's menus and permissions in a department",
      response: {
        data: z.object({
          menusPermissionMenus: z.array(menuNodeSchema),
          buttonsPermissionMenus: z.array(z.object({ id: z.number().int(), permissionKey: z.string(), path: z.string().nullable(), permissionName: z.string() })),
          systemConfigPermissionMenus: z.array(z.object({ configKey: z.string(), configValue: z.string().nullable() })),
          department: departmentRef,
        }),
        errors: [404],
      },
      schema: { query: z.object({ userId: id, departmentId: id }) },
      async handler({ caller, query, headers }) {
        if (query.userId !== caller!.userId && !caller!.isSuperAdmin) {
          throw new ApiError(Codes.FORBIDDEN, { 'zh-CN': '无权限：只有超级管理员可以读取其他用户的菜单', 'en-US': 'Permission denied: only a super administrator may read another user\'s menus' });
        }
        const department = (await departmentsOf(db, query.userId)).find((d) => d.id === query.departmentId);
        if (!department) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `用户 ${query.userId} 在部门 ${query.departmentId} 中没有角色`, 'en-US': `User ${query.userId} has no roles in department ${query.departmentId}` });
        const locale = localeOf(headers);
        let granted = await grantedPermissions(db, await rolesIn(db, query.userId, query.departmentId));
        // A quick-access session sees only its one page.
        const scope = (caller as ScopedCaller).scopePath;
        if (scope) granted = granted.filter((g) => g.path === scope && caller!.permissions.has(g.key));
        return {
          menusPermissionMenus: buildMenuTree(await activePermissions(db), granted, locale),
          buttonsPermissionMenus: buttonEntries(granted, locale),
          systemConfigPermissionMenus: systemConfigEntries(granted),
          department: { ...department, departmentName: seededName(department.departmentName, locale) },
        };
      },
    },
    {
      method: 'GET',
      url: '/user/showWebSocketInfo',
      access: 'signed-in',
      summary: 'Get the live-update WebSocket path',
      response: { data: z.object({ path: z.string() }) },
      handler: () => ({ path: '/api/ws' }),
    },
    {
      method: 'GET',
      url: '/captcha/slider',
      access: 'public',
      summary: 'Create a slider captcha puzzle',
      response: { data: z.object({ id: z.string(), background: z.string().describe('PNG data URL'), piece: z.string().describe('PNG data URL'), y: z.number(), width: z.number(), height: z.number() }) },
      handler: () => createPuzzle(db, now()),
    },
    {
      method: 'POST',
      url: '/captcha/slider/verify',
      access: 'public',
      summary: 'Solve a slider captcha puzzle',
      response: { data: z.object({ ticket: z.string().describe('Sent with the login or the registration') }), errors: [304] },
      schema: { body: z.object({ id: z.string().min(1), x: z.coerce.number() }) },
      async handler({ body }) {
        const result = await verifyPuzzle(db, body.id, Math.round(body.x), now());
        if (!result.ok) throw new ApiError(Codes.AUTH_FAILED, result.reason);
        return { ticket: result.ticket };
      },
    },
    {
      method: 'OPTIONS',
      url: '/ldap/getAllSymbols',
      access: 'public',
      summary: 'List the directory domains offered at sign-in',
      response: { data: z.array(z.object({ symbol: z.string(), name: z.string() })) },
      handler: () => listSymbols(db),
    },
    ...accountRoutes(deps),
    ...ssoRoutes(deps),
    ...signInAdminRoutes(deps),
  ];
}
