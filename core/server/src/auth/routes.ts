import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ApiError, type Logger, type RouteDefinition } from '@linguaport/sdk/server';
import { AuthMessages, Codes } from '@linguaport/sdk/shared';
import { activePermissions, buildMenuTree, buttonEntries, grantedPermissions, rolesIn, systemConfigEntries } from '../access/grants.js';
import { can, verifyPassword } from '../access/passwords.js';
import { createSession, revokeSession, type Clock, type SessionCaller } from '../access/sessions.js';
import { localeOf } from '../http/locale.js';
import { claimKey, decryptPassword, issuePublicKey } from './keys.js';
import { departmentsOf, userInfo } from './user-info.js';

/** The kernel's sign-in, user-info, menu and company-config calls (spec 01 sections 7.1-7.3). */

export interface AuthRouteDeps {
  db: Kysely<any>;
  now: Clock;
  logger: Logger;
  /** Called when a session ends (logout, department switch): open sockets of it are closed. */
  onSessionEnded(tokenHash: string): void;
}

// Compared against when the user does not exist, so a wrong name costs as long as a wrong password.
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$' + Buffer.alloc(64).toString('base64');

const badCredentials = () => new ApiError(Codes.AUTH_FAILED, AuthMessages.BAD_CREDENTIALS);
// base64 has no spaces: a '+' that a urlencoded form turned into a space is put back.
const base64Field = z.string().min(1).transform((s) => s.replace(/ /g, '+'));

const loginBody = z.object({
  username: z.string().trim().min(1),
  password: base64Field,
  publicKey: base64Field,
  symbol: z.string().optional(),
});

const id = z.coerce.number().int().positive();

export function authRoutes(deps: AuthRouteDeps): RouteDefinition[] {
  const { db, now, logger } = deps;

  return [
    {
      method: 'GET',
      url: '/user/getOnePublicKey',
      access: 'public',
      handler: () => issuePublicKey(db, now()),
    },
    {
      method: 'POST',
      url: '/login',
      access: 'public',
      schema: { body: loginBody },
      async handler({ body, ip }) {
        const at = now();
        const key = await claimKey(db, body.publicKey, at);
        if (!key.ok) {
          logger.info(`login refused for ${body.username}: ${key.reason}`, { ip });
          throw badCredentials();
        }
        const password = decryptPassword(key.privateKeyPem, body.password);
        if (password === null) {
          logger.info(`login refused for ${body.username}: password not decryptable with the key`, { ip });
          throw badCredentials();
        }
        const user = await db
          .selectFrom('users')
          .select(['id', 'password_hash', 'enabled', 'status', 'expires_at'])
          .where('username', '=', body.username)
          .executeTakeFirst();
        const matches = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
        if (!user || !matches) throw badCredentials();
        if (!user.enabled) throw new ApiError(Codes.AUTH_FAILED, 'This account is disabled; ask an administrator');
        if (user.status !== 'checked') throw new ApiError(Codes.AUTH_FAILED, 'This account is awaiting approval by an administrator');
        if (user.expires_at && new Date(user.expires_at) <= at) throw new ApiError(Codes.AUTH_FAILED, 'This account has expired; ask an administrator');
        // The session starts in the user's first department; /user/switchDepartment changes it.
        const [first] = await departmentsOf(db, user.id);
        const token = await createSession(db, user.id, first?.id ?? null, at);
        await db.updateTable('users').set({ last_login_at: at }).where('id', '=', user.id).execute();
        return { token, userId: user.id };
      },
    },
    {
      method: 'POST',
      url: '/logout',
      access: 'signed-in',
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
      handler: ({ caller }) => userInfo(db, caller!.userId, caller!.departmentId),
    },
    {
      method: 'GET',
      url: '/user/getUserInfo/:id',
      access: 'signed-in',
      schema: { params: z.object({ id }) },
      async handler({ caller, params }) {
        if (params.id !== caller!.userId && !can(caller, 'user:view')) {
          throw new ApiError(Codes.FORBIDDEN, 'Permission denied: viewing another user needs the permission user:view');
        }
        const info = await userInfo(db, params.id, params.id === caller!.userId ? caller!.departmentId : null);
        if (!info) throw new ApiError(Codes.NOT_FOUND, `No user with id ${params.id}`);
        return info;
      },
    },
    {
      method: 'POST',
      url: '/user/switchDepartment',
      access: 'signed-in',
      schema: { body: z.object({ departmentId: id }) },
      async handler({ caller, body }) {
        const session = caller as SessionCaller;
        const departments = await departmentsOf(db, session.userId);
        if (!departments.some((d) => d.id === body.departmentId)) {
          throw new ApiError(Codes.FORBIDDEN, `You are not a member of department ${body.departmentId}`);
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
      schema: { query: z.object({ userId: id, departmentId: id }) },
      async handler({ caller, query, headers }) {
        if (query.userId !== caller!.userId && !caller!.isSuperAdmin) {
          throw new ApiError(Codes.FORBIDDEN, 'Permission denied: only a super administrator may read another user\'s menus');
        }
        const department = (await departmentsOf(db, query.userId)).find((d) => d.id === query.departmentId);
        if (!department) throw new ApiError(Codes.NOT_FOUND, `User ${query.userId} has no roles in department ${query.departmentId}`);
        const locale = localeOf(headers);
        const granted = await grantedPermissions(db, await rolesIn(db, query.userId, query.departmentId));
        return {
          menusPermissionMenus: buildMenuTree(await activePermissions(db), granted, locale),
          buttonsPermissionMenus: buttonEntries(granted, locale),
          systemConfigPermissionMenus: systemConfigEntries(granted),
          department,
        };
      },
    },
    {
      method: 'GET',
      url: '/user/showWebSocketInfo',
      access: 'signed-in',
      handler: () => ({ path: '/api/ws' }),
    },
  ];
}
