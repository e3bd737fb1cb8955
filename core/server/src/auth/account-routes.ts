import { z } from 'zod';
import { ApiError, requestLocale, timestampSchema, type RouteDefinition } from '@linguaport/sdk/server';
import { chinesePhoneSchema, Codes, emailSchema, idSchema, LOCALES, seededName } from '@linguaport/sdk/shared';
import { can, hashPassword, verifyPassword } from '../access/passwords.js';
import { endSessions, type SessionCaller } from '../access/sessions.js';
import { checkApiKeyReset, readApiKey, readApiKeyScopes, resetApiKey } from './api-keys.js';
import { badCredentials, checkAccount, failAttempt, guardAttempt, openSealed, startSession } from './login.js';
import { passwordProblem, passwordStatus } from './password-policy.js';
import { defaultRoleId, NO_LOCAL_PASSWORD, UserType } from './provision.js';
import { createQuickAccessLink, openQuickAccessToken, QUICK_ACCESS_PATH } from './quick-access.js';
import type { AuthRouteDeps } from './routes.js';
import { declaredLists } from '../plugins/declared-lists.js';
import { ConfigKeys, flagOn } from './settings.js';
import { consumeTicket } from './slider.js';
import { recordSuccess } from './throttle.js';

/** Own-account and alternative sign-in calls: guest, registration, quick access, passwords, profile, locale, API keys. */

const base64Field = z.string().min(1).transform((s) => s.replace(/ /g, '+'));
const id = idSchema;
export const GUEST_USERNAME = 'guest';
export const GUEST_ROLE = '访客';

const registerBody = z.object({
  username: z.string().trim().regex(/^[A-Za-z0-9_.@-]{3,32}$/, 'The account name must be 3 to 32 letters, digits or _ . @ -'),
  password: base64Field,
  publicKey: base64Field,
  realName: z.string().trim().min(1).max(50),
  email: z.union([emailSchema, z.literal('')]).optional(),
  phone: z.union([chinesePhoneSchema, z.literal('')]).optional(),
  departmentId: id,
  /** The slider puzzle's ticket, needed while LANDING_SLIDER is on (the sign-up form is as exposed as the login). */
  ticket: z.string().optional(),
});

/** A new session: its token (the `Jwt` header of later calls) and whose it is. */
export const sessionAnswer = z.object({ token: z.string(), userId: z.number().int() });
export const departmentRef = z.object({ id: z.number().int(), departmentName: z.string() });

const profileBody = z.object({
  realName: z.string().trim().min(1).max(50),
  email: z.union([emailSchema, z.literal('')]).nullable().optional(),
  phone: z.union([chinesePhoneSchema, z.literal('')]).nullable().optional(),
});

const ownOr = (permission: string, whatZh: string, what: string) => (caller: Parameters<typeof can>[0], userId: number) => {
  if (caller!.userId !== userId && !can(caller, permission)) {
    throw new ApiError(Codes.FORBIDDEN, { 'zh-CN': `无权限：${whatZh}需要 ${permission} 权限`, 'en-US': `Permission denied: ${what} of another user needs the permission ${permission}` });
  }
};

export function accountRoutes(deps: AuthRouteDeps): RouteDefinition[] {
  const { db, now, secret } = deps;
  // The scopes a key may be granted: the kernel's and those the enabled plugins declare.
  const scopeWords = (deps.apiKeyScopes ?? declaredLists([]).apiKeyScopes).words.map((w) => w.word) as [string, ...string[]];
  const ownOrApiKeyReset = ownOr('apiKey:reset', '重置其他用户的 API 密钥', 'resetting the API key');
  const ownOrUserView = ownOr('user:view', '读取其他用户的密码状态', 'reading the password status');

  /** The guest account and role, made on first use (admins grant the guest role what guests may see). */
  async function guestUserId(): Promise<number> {
    const existing = await db.selectFrom('users').select('id').where('username', '=', GUEST_USERNAME).where('user_type', '=', UserType.GUEST).executeTakeFirst();
    if (existing) return existing.id;
    return db.transaction().execute(async (trx) => {
      const role =
        (await trx.selectFrom('roles').select('id').where('name', '=', GUEST_ROLE).executeTakeFirst()) ??
        (await trx.insertInto('roles').values({ name: GUEST_ROLE, description: 'Guest: what visitors without an account may use' }).returning('id').executeTakeFirstOrThrow());
      const department = await trx.selectFrom('departments').select('id').where('is_default', '=', true).orderBy('id').executeTakeFirstOrThrow();
      const user = await trx
        .insertInto('users')
        .values({ username: GUEST_USERNAME, real_name: '访客', password_hash: NO_LOCAL_PASSWORD, user_type: UserType.GUEST, status: 'checked', enabled: true })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx.insertInto('user_department_roles').values({ user_id: user.id, department_id: department.id, role_id: role.id }).execute();
      return user.id as number;
    });
  }

  return [
    {
      method: 'GET',
      url: '/user/getGuestUser',
      access: 'public',
      summary: 'Sign in as the guest user',
      response: { data: sessionAnswer, errors: [304] },
      async handler() {
        if (!(await flagOn(db, ConfigKeys.GUEST_LOGIN))) throw new ApiError(Codes.FORBIDDEN, { 'zh-CN': '访客登录已关闭', 'en-US': 'Guest sign-in is switched off' });
        const userId = await guestUserId();
        await checkAccount(deps, userId, now());
        return startSession(deps, userId, now());
      },
    },
    {
      method: 'POST',
      url: '/user/register',
      access: 'public',
      summary: 'Register an account',
      response: { data: z.object({ userId: z.number().int(), status: z.enum(['checked', 'unchecked']).describe('unchecked: waits for an administrator') }), errors: [304, 409] },
      schema: { body: registerBody },
      async handler({ body, ip }) {
        if (!(await flagOn(db, ConfigKeys.ALLOW_REGISTER))) throw new ApiError(Codes.FORBIDDEN, { 'zh-CN': '自助注册已关闭', 'en-US': 'Self-registration is switched off' });
        const at = now();
        if ((await flagOn(db, ConfigKeys.LANDING_SLIDER)) && !(await consumeTicket(db, body.ticket, at))) throw new ApiError(Codes.AUTH_FAILED, { 'zh-CN': '请先完成滑块验证', 'en-US': 'Complete the slider puzzle first' });
        const opened = await openSealed(deps, body.publicKey, [body.password], at, body.username, ip);
        if (!opened) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': '无法读取密码：请重新获取公钥后再试', 'en-US': 'The password could not be read: fetch a new public key and try again' });
        const problem = passwordProblem(opened[0]);
        if (problem) throw new ApiError(Codes.BAD_REQUEST, problem);
        const department = await db.selectFrom('departments').select('id').where('id', '=', body.departmentId).executeTakeFirst();
        if (!department) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': `编号为 ${body.departmentId} 的部门不存在`, 'en-US': `No department with id ${body.departmentId}` });
        const taken = await db.selectFrom('users').select('id').where('username', '=', body.username).executeTakeFirst();
        if (taken) throw new ApiError(Codes.CONFLICT, { 'zh-CN': `账户名 ${body.username} 已被占用`, 'en-US': `The account name ${body.username} is taken` });
        const approved = await flagOn(db, ConfigKeys.REGISTER_AUTO_APPROVE);
        const role = await defaultRoleId(db);
        const hash = await hashPassword(opened[0]);
        const userId = await db.transaction().execute(async (trx) => {
          const user = await trx
            .insertInto('users')
            .values({ username: body.username, real_name: body.realName, email: body.email || null, phone: body.phone || null, password_hash: hash, user_type: UserType.LOCAL, status: approved ? 'checked' : 'unchecked', enabled: true, password_changed_at: at })
            .returning('id')
            .executeTakeFirstOrThrow();
          await trx.insertInto('user_department_roles').values({ user_id: user.id, department_id: body.departmentId, role_id: role }).execute();
          return user.id as number;
        });
        return { userId, status: approved ? 'checked' : 'unchecked' };
      },
    },
    {
      // The department pick of the sign-up form: only while registration is on.
      method: 'GET',
      url: '/user/registerDepartments',
      access: 'public',
      summary: 'List the departments offered at registration',
      response: { data: z.array(departmentRef) },
      async handler({ headers }) {
        if (!(await flagOn(db, ConfigKeys.ALLOW_REGISTER))) throw new ApiError(Codes.FORBIDDEN, { 'zh-CN': '自助注册已关闭', 'en-US': 'Self-registration is switched off' });
        const rows = await db.selectFrom('departments').select(['id', 'name as departmentName']).orderBy('id').execute();
        const locale = requestLocale(headers);
        return rows.map((r) => ({ id: r.id, departmentName: seededName(r.departmentName, locale) }));
      },
    },
    {
      method: 'POST',
      url: '/quickAccess/create',
      access: { permission: 'quickAccess:create' },
      summary: 'Create a quick access link for a user',
      response: { data: z.object({ token: z.string(), url: z.string().describe('The console address that signs in with the token'), expiresAt: timestampSchema }), errors: [404] },
      schema: { body: z.object({ userId: id, path: z.string().max(500).regex(QUICK_ACCESS_PATH, 'path must start with a slash').refine((p) => p !== '/', 'path must name a page'), expiresInMinutes: z.coerce.number().int().min(1).max(30 * 24 * 60) }) },
      async handler({ body }) {
        const user = await db.selectFrom('users').select('id').where('id', '=', body.userId).executeTakeFirst();
        if (!user) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `找不到编号为 ${body.userId} 的用户`, 'en-US': `No user with id ${body.userId}` });
        const expiresAt = new Date(now().getTime() + body.expiresInMinutes * 60_000);
        return { ...createQuickAccessLink(secret, { userId: body.userId, path: body.path, expiresAt }), expiresAt: expiresAt.toISOString() };
      },
    },
    {
      method: 'GET',
      url: '/quickAccess/login',
      access: 'public',
      summary: 'Sign in with a quick access link',
      response: { data: sessionAnswer.extend({ path: z.string().describe('The one page the session may open') }), errors: [304] },
      schema: { query: z.object({ token: z.string().min(1) }) },
      async handler({ query }) {
        const at = now();
        const opened = openQuickAccessToken(secret, query.token, at);
        if (!opened.ok) throw new ApiError(Codes.AUTH_FAILED, opened.reason);
        await checkAccount(deps, opened.userId, at);
        const session = await startSession(deps, opened.userId, at, { scopePath: opened.path });
        return { ...session, path: opened.path };
      },
    },
    {
      method: 'GET',
      url: '/user/isNeedUpdatePassword',
      access: 'signed-in',
      summary: 'Check whether a user must change the password',
      response: { data: z.object({ need: z.boolean(), daysLeft: z.number().int().nullable().describe('Days until the password expires; null when it does not'), warn: z.boolean() }), errors: [404] },
      schema: { query: z.object({ userId: id.optional() }) },
      async handler({ caller, query }) {
        const userId = query.userId ?? caller!.userId;
        ownOrUserView(caller, userId);
        const status = await passwordStatus(db, userId, now());
        if (!status) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `找不到编号为 ${userId} 的用户`, 'en-US': `No user with id ${userId}` });
        return status;
      },
    },
    {
      // Spec 02 section 7 puts the values in the query. Without a session (login answered 4014)
      // the account is named by username; both passwords are sealed with one one-time key.
      method: 'GET',
      url: '/user/updatePasswordForced',
      access: 'public',
      summary: 'Change a password (also when expired)',
      response: { data: z.null(), errors: [304] },
      // A GET that changes data (spec 01 fixes the method): recorded like any change.
      log: true,
      schema: { query: z.object({ oldPassword: base64Field, newPassword: base64Field, publicKey: base64Field, username: z.string().trim().optional() }) },
      async handler({ caller, query, ip }) {
        const at = now();
        const user = caller
          ? await db.selectFrom('users').select(['id', 'username', 'password_hash', 'user_type']).where('id', '=', caller.userId).executeTakeFirst()
          : query.username
            ? await db.selectFrom('users').select(['id', 'username', 'password_hash', 'user_type']).where('username', '=', query.username).executeTakeFirst()
            : undefined;
        if (!caller && !query.username) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': '请提供账户名（username）或携带会话调用', 'en-US': 'Name the account (username) or call with a session' });
        const who = user?.username ?? query.username ?? '?';
        const opened = await openSealed(deps, query.publicKey, [query.oldPassword, query.newPassword], at, who, ip);
        if (!opened) throw badCredentials();
        await guardAttempt(deps, who, ip, at);
        if (!user || user.user_type !== UserType.LOCAL || !(await verifyPassword(opened[0], user.password_hash))) {
          return failAttempt(deps, who, ip, at, 'wrong old password on password change');
        }
        await recordSuccess(db, who, ip, at, user.id);
        const problem = passwordProblem(opened[1]);
        if (problem) throw new ApiError(Codes.BAD_REQUEST, problem);
        if (opened[1] === opened[0]) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': '新密码不能与旧密码相同', 'en-US': 'The new password must differ from the old one' });
        await db.updateTable('users').set({ password_hash: await hashPassword(opened[1]), password_changed_at: at, need_password_change: false }).where('id', '=', user.id).execute();
        // Whoever held the old password is signed out everywhere but here.
        const own = caller?.userId === user.id ? (caller as SessionCaller).tokenHash ?? null : null;
        for (const hash of await endSessions(db, [user.id], at, own)) deps.onSessionEnded(hash);
        return null;
      },
    },
    {
      method: 'POST',
      url: '/user/checkPassword',
      access: 'member',
      summary: "Check the signed-in user's password",
      response: { data: z.object({ valid: z.literal(true) }), errors: [304] },
      schema: { body: z.object({ password: base64Field, publicKey: base64Field }) },
      async handler({ caller, body, ip }) {
        const at = now();
        const user = await db.selectFrom('users').select(['username', 'password_hash']).where('id', '=', caller!.userId).executeTakeFirstOrThrow();
        const opened = await openSealed(deps, body.publicKey, [body.password], at, user.username, ip);
        if (!opened) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': '无法读取密码：请重新获取公钥后再试', 'en-US': 'The password could not be read: fetch a new public key and try again' });
        await guardAttempt(deps, user.username, ip, at);
        if (!(await verifyPassword(opened[0], user.password_hash))) return failAttempt(deps, user.username, ip, at, 'wrong password on checkPassword');
        await recordSuccess(db, user.username, ip, at, caller!.userId);
        return { valid: true };
      },
    },
    {
      method: 'PUT',
      url: '/user/updateOwnProfile',
      access: 'member',
      summary: 'Edit own profile',
      response: { data: z.null() },
      schema: { body: profileBody },
      async handler({ caller, body }) {
        const user = await db.selectFrom('users').select('user_type').where('id', '=', caller!.userId).executeTakeFirstOrThrow();
        if (user.user_type !== UserType.LOCAL) throw new ApiError(Codes.FORBIDDEN, { 'zh-CN': '只有本地账户可以编辑自己的资料；目录账户和单点登录账户由其来源维护', 'en-US': 'Only local accounts edit their own profile; directory and single sign-on accounts are kept by their source' });
        await db.updateTable('users').set({ real_name: body.realName, email: body.email || null, phone: body.phone || null }).where('id', '=', caller!.userId).execute();
        return null;
      },
    },
    {
      method: 'PUT',
      url: '/user/locale',
      access: 'signed-in',
      summary: 'Set own interface language (the shared guest account keeps its own: a guest\'s choice stays in the browser)',
      response: { data: z.null() },
      schema: { body: z.object({ locale: z.enum(LOCALES) }) },
      async handler({ caller, body }) {
        if (caller!.via !== 'session') return null;
        await db.updateTable('users').set({ locale: body.locale }).where('id', '=', caller!.userId).execute();
        return null;
      },
    },
    {
      method: 'GET',
      url: '/user/checkUpdateApiKey/:id',
      access: 'member',
      summary: "Check whether a user's API key may be reset now",
      response: { data: z.object({ allowed: z.boolean(), nextAllowedAt: timestampSchema.nullable() }), errors: [404] },
      schema: { params: z.object({ id }) },
      async handler({ caller, params }) {
        ownOrApiKeyReset(caller, params.id);
        const check = await checkApiKeyReset(db, params.id, now());
        if (!check) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `找不到编号为 ${params.id} 的用户`, 'en-US': `No user with id ${params.id}` });
        return check.allowed ? { allowed: true, nextAllowedAt: null } : { allowed: false, nextAllowedAt: check.nextAllowedAt.toISOString() };
      },
    },
    {
      method: 'GET',
      url: '/user/updateApiKey/:id',
      access: 'member',
      summary: "Reset a user's API key",
      response: { data: z.string().describe('The new key; masked but for its last 4 characters when reset by an administrator'), errors: [404, 429] },
      schema: { params: z.object({ id }) },
      async handler({ caller, params }) {
        ownOrApiKeyReset(caller, params.id);
        const at = now();
        const check = await checkApiKeyReset(db, params.id, at);
        if (!check) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `找不到编号为 ${params.id} 的用户`, 'en-US': `No user with id ${params.id}` });
        const key = check.allowed ? await resetApiKey(db, secret, params.id, at) : null;
        if (!key) {
          const next = check.allowed ? null : check.nextAllowedAt.toISOString();
          throw new ApiError(Codes.TOO_MANY, { 'zh-CN': `API 密钥每 24 小时只能更换一次${next ? `；下次可更换时间：${next}` : ''}`, 'en-US': `The API key can be changed once per 24 hours${next ? `; next change possible at ${next}` : ''}` }, { nextAllowedAt: next });
        }
        // The new key goes back only to its owner; an administrator resetting it sees it masked.
        return params.id === caller!.userId ? key : `${'*'.repeat(16)}${key.slice(-4)}`;
      },
    },
    {
      method: 'GET',
      url: '/user/getApiKey',
      access: 'member',
      summary: 'Get own API key',
      response: { data: z.object({ apiKey: z.string().nullable(), scopes: z.array(z.string()) }) },
      handler: async ({ caller }) => ({ apiKey: await readApiKey(db, secret, caller!.userId), scopes: await readApiKeyScopes(db, caller!.userId) }),
    },
    {
      // Only the owner, from a console session, grants a key more than the default scope.
      method: 'PUT',
      url: '/user/apiKeyScopes',
      access: 'member',
      summary: 'Set the scopes of own API key',
      response: { data: z.object({ scopes: z.array(z.string()) }) },
      schema: { body: z.object({ scopes: z.array(z.enum(scopeWords)).min(1) }) },
      async handler({ caller, body }) {
        const scopes = scopeWords.filter((s) => body.scopes.includes(s));
        await db.updateTable('users').set({ api_key_scopes: scopes.join(',') }).where('id', '=', caller!.userId).execute();
        return { scopes };
      },
    },
  ];
}
