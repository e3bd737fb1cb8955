import { ApiError } from '@linguaport/sdk/server';
import { AuthMessages, AuthMessagesZh, Codes } from '@linguaport/sdk/shared';
import { verifyPassword } from '../access/passwords.js';
import { createSession } from '../access/sessions.js';
import { authenticate, findDomain } from './directory.js';
import { claimKey, decryptPassword } from './keys.js';
import { passwordStatus } from './password-policy.js';
import { provisionExternalUser, UsernameTaken, UserType } from './provision.js';
import type { AuthRouteDeps } from './routes.js';
import { ConfigKeys, flagOn } from './settings.js';
import { consumeTicket } from './slider.js';
import { admitAttempt, recordSuccess } from './throttle.js';
import { departmentsOf } from './user-info.js';
import { isQuickAccessPath } from './quick-access.js';

// Compared against when the user does not exist, so a wrong name costs as long as a wrong password.
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$' + Buffer.alloc(64).toString('base64');

/** Spec 01 section 8's 'Bad credentials' (in the request's language; the console matches either). */
export const badCredentials = () => new ApiError(Codes.AUTH_FAILED, { 'zh-CN': AuthMessagesZh.BAD_CREDENTIALS, 'en-US': AuthMessages.BAD_CREDENTIALS });

type Deps = Pick<AuthRouteDeps, 'db' | 'now' | 'logger' | 'secret'>;

/** Decrypts an RSA-OAEP value made with a one-time key (which this uses up). Null when it cannot. */
export async function openSealed(deps: Deps, publicKey: string, ciphertexts: string[], at: Date, who: string, ip: string): Promise<string[] | null> {
  const key = await claimKey(deps.db, publicKey, at);
  if (!key.ok) {
    deps.logger.info(`sign-in refused for ${who}: ${key.reason}`, { ip });
    return null;
  }
  const out: string[] = [];
  for (const c of ciphertexts) {
    const plain = decryptPassword(key.privateKeyPem, c);
    if (plain === null) {
      deps.logger.info(`sign-in refused for ${who}: value not decryptable with the key`, { ip });
      return null;
    }
    out.push(plain);
  }
  return out;
}

/**
 * Counts the attempt before its password is checked (throttle.ts); refuses it (304, with the wait
 * or `challenge: 'slider'`) when the account or the address may not try now. `solved`: the attempt
 * carried a valid slider ticket.
 */
export async function guardAttempt(deps: Deps, username: string, ip: string, at: Date, solved = false): Promise<void> {
  const refusal = await admitAttempt(deps.db, { username, ip, at, solved });
  if (refusal) {
    deps.logger.info(`sign-in refused for ${username}: throttled (${refusal.challenge ? 'slider puzzle needed' : `${refusal.retryAfterSeconds} s`})`, { ip });
    const { message, ...data } = refusal;
    throw new ApiError(Codes.AUTH_FAILED, message, data);
  }
}

/** A failed check: already counted by guardAttempt, so only logged. */
export async function failAttempt(deps: Deps, username: string, ip: string, _at: Date, why: string): Promise<never> {
  deps.logger.info(`sign-in failed for ${username}: ${why}`, { ip });
  throw badCredentials();
}

/** Account states that refuse a sign-in even with the right password. */
export async function checkAccount(deps: Deps, userId: number, at: Date): Promise<void> {
  const user = await deps.db.selectFrom('users').select(['enabled', 'status', 'expires_at']).where('id', '=', userId).executeTakeFirstOrThrow();
  if (!user.enabled) throw new ApiError(Codes.AUTH_FAILED, { 'zh-CN': '该账户已停用，请联系管理员', 'en-US': 'This account is disabled; ask an administrator' });
  if (user.status !== 'checked') throw new ApiError(Codes.AUTH_FAILED, { 'zh-CN': '该账户正在等待管理员审核', 'en-US': 'This account is awaiting approval by an administrator' });
  if (user.expires_at && new Date(user.expires_at) <= at) throw new ApiError(Codes.AUTH_FAILED, { 'zh-CN': '该账户已过期，请联系管理员', 'en-US': 'This account has expired; ask an administrator' });
}

/**
 * A session in the user's first department (/user/switchDepartment changes it). With `quickAccess`,
 * a session limited to one page, whose path must be a real one: it is written with the session row,
 * so no moment or failure leaves a page link holding a full session.
 */
export async function startSession(deps: Deps, userId: number, at: Date, quickAccess?: { scopePath: string }): Promise<{ token: string; userId: number }> {
  if (quickAccess && !isQuickAccessPath(quickAccess.scopePath)) throw new ApiError(Codes.AUTH_FAILED, { 'zh-CN': '该快捷访问链接无效', 'en-US': 'This quick-access link is not valid' });
  const [first] = await departmentsOf(deps.db, userId);
  const token = await createSession(deps.db, userId, first?.id ?? null, at, quickAccess?.scopePath ?? null);
  await deps.db.updateTable('users').set({ last_login_at: at }).where('id', '=', userId).execute();
  return { token, userId };
}

export const PASSWORD_EXPIRED_MSG = { 'zh-CN': '密码已过期或必须修改：请设置新密码后登录', 'en-US': 'Your password has expired or must be changed: set a new one to sign in' };

/**
 * POST /login: one-time key, slider ticket when LANDING_SLIDER is on, throttling, then a local
 * password check, or with `symbol` a directory bind (provisioning the user on first sign-in).
 */
export async function passwordLogin(
  deps: Deps,
  body: { username: string; password: string; publicKey: string; symbol?: string; ticket?: string },
  ip: string,
): Promise<{ token: string; userId: number }> {
  const { db } = deps;
  const at = deps.now();
  // A ticket is always used up when sent; it is required while LANDING_SLIDER is on, and after too many failures.
  const solved = body.ticket ? await consumeTicket(db, body.ticket, at) : false;
  if (!solved && (await flagOn(db, ConfigKeys.LANDING_SLIDER))) throw new ApiError(Codes.AUTH_FAILED, { 'zh-CN': '请先完成滑块验证', 'en-US': 'Complete the slider puzzle first' });
  const opened = await openSealed(deps, body.publicKey, [body.password], at, body.username, ip);
  if (!opened) throw badCredentials();
  const [password] = opened;
  await guardAttempt(deps, body.username, ip, at, solved);

  let userId: number;
  const symbol = body.symbol?.trim();
  if (symbol) {
    const domain = await findDomain(db, deps.secret, symbol);
    if (!domain) throw new ApiError(Codes.AUTH_FAILED, { 'zh-CN': `未知的目录域 ${symbol}`, 'en-US': `Unknown directory domain ${symbol}` });
    const outcome = await authenticate(domain, body.username, password);
    if (!outcome.ok) {
      if (outcome.reason === 'unreachable') {
        deps.logger.warn(`directory ${symbol} unreachable: ${outcome.detail}`, { ip });
        throw new ApiError(Codes.SERVICE_INTERRUPTED, { 'zh-CN': `无法连接目录 ${domain.name}，请稍后再试`, 'en-US': `The directory ${domain.name} cannot be reached; try again later` });
      }
      return failAttempt(deps, body.username, ip, at, `directory ${symbol}: ${outcome.reason}`);
    }
    try {
      ({ userId } = await provisionExternalUser(db, {
        source: `ldap:${symbol}`,
        subject: outcome.identity.dn.toLowerCase(),
        username: body.username,
        realName: outcome.identity.realName,
        email: outcome.identity.email,
        userType: UserType.DIRECTORY,
      }));
    } catch (err) {
      if (err instanceof UsernameTaken) throw new ApiError(Codes.AUTH_FAILED, { 'zh-CN': `账户名 ${err.username} 已被另一个账户使用，请联系管理员`, 'en-US': `${err.message}; ask an administrator` });
      throw err;
    }
  } else {
    const user = await db.selectFrom('users').select(['id', 'password_hash']).where('username', '=', body.username).executeTakeFirst();
    const matches = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
    if (!user || !matches) return failAttempt(deps, body.username, ip, at, user ? 'wrong password' : 'no such account');
    userId = user.id;
  }
  await recordSuccess(db, body.username, ip, at, userId);
  await checkAccount(deps, userId, at);
  const status = await passwordStatus(db, userId, at);
  if (status?.need) throw new ApiError(Codes.LOGIN_NEEDS_ACTION, PASSWORD_EXPIRED_MSG, { userId, reason: 'password' });
  return startSession(deps, userId, at);
}
