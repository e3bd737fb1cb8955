import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import * as oidc from 'openid-client';
import { z } from 'zod';
import { ApiError, type LocalizedText, type RouteDefinition } from '@linguaport/sdk/server';
import { Codes } from '@linguaport/sdk/shared';
import { sessionAnswer } from './account-routes.js';
import { checkAccount, PASSWORD_EXPIRED_MSG, startSession } from './login.js';
import { passwordStatus } from './password-policy.js';
import { provisionExternalUser, UsernameTaken, UserType } from './provision.js';
import type { AuthRouteDeps } from './routes.js';
import type { Secret } from './secret.js';
import { departmentsOf } from './user-info.js';
import type { KernelTables } from '../db/schema.js';

/**
 * Single sign-on: OpenID Connect authorization code flow with PKCE (S256), state and nonce.
 *
 * 1. GET /sso/client/getSSOLoginPage -> {url, ticket}: the authorize URL; the verifier, state and
 *    nonce stay on the server (table sso_logins).
 * 2. The provider redirects the browser to GET /sso/login?code&state: the server exchanges the
 *    code, verifies the ID token, provisions or links the user, and redirects to /sso?ticket=...
 * 3. GET /sso/client/getSSOStatus?ticket -> {token, userId} once; 4015 while step 2 has not
 *    happened; 4014 when the account must act first (see core/README.md).
 */

/** A failed sign-on's outcome is stored as its message in both languages (JSON); older rows hold English text. */
function storedOutcome(text: string | null): LocalizedText {
  const fallback = { 'zh-CN': '单点登录失败', 'en-US': 'Single sign-on failed' };
  if (!text) return fallback;
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    if (typeof v?.['zh-CN'] === 'string' && typeof v['en-US'] === 'string') return { 'zh-CN': v['zh-CN'], 'en-US': v['en-US'] };
  } catch {
    // Plain text: a row written before outcomes were stored in both languages.
  }
  return { 'zh-CN': `单点登录失败：${text}`, 'en-US': text };
}

export const SSO_LOGIN_VALIDITY_MS = 10 * 60_000;
const DISCOVERY_TTL_MS = 10 * 60_000;

export interface SsoProviderInput {
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string | null;
  /** Null: derived per request from the Host header (`<proto>://<host>/api/sso/login`). */
  redirectUri: string | null;
  scopes?: string;
  enabled?: boolean;
}

export async function saveSsoProvider(db: Kysely<KernelTables>, secret: Secret, p: SsoProviderInput): Promise<number> {
  const values = {
    name: p.name,
    issuer: p.issuer,
    client_id: p.clientId,
    client_secret: p.clientSecret ? secret.encrypt(p.clientSecret) : null,
    redirect_uri: p.redirectUri ?? '',
    scopes: p.scopes ?? 'openid profile email',
    enabled: p.enabled ?? true,
  };
  const existing = await db.selectFrom('sso_providers').select('id').where('issuer', '=', p.issuer).where('client_id', '=', p.clientId).executeTakeFirst();
  if (existing) {
    await db.updateTable('sso_providers').set(values).where('id', '=', existing.id).execute();
    return existing.id;
  }
  return (await db.insertInto('sso_providers').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

interface ProviderRow {
  id: number;
  name: string;
  issuer: string;
  client_id: string;
  client_secret: string | null;
  redirect_uri: string;
  scopes: string;
  enabled: boolean;
}

interface LoginRow {
  state: string;
  provider_id: number;
  code_verifier: string;
  nonce: string;
  redirect_uri: string;
  created_at: Date | string;
  ticket_hash: string;
  user_id: number | null;
  outcome: string | null;
  completed_at: Date | string | null;
  collected_at: Date | string | null;
}

const ticketHash = (t: string) => createHash('sha256').update(t).digest('hex');

export function ssoRoutes(deps: AuthRouteDeps): RouteDefinition[] {
  const { db, now, secret, logger } = deps;
  const discovered = new Map<string, { at: number; config: oidc.Configuration }>();

  async function configFor(p: { id: number; issuer: string; client_id: string; client_secret: string | null }): Promise<oidc.Configuration> {
    // Keyed by everything discovery depends on, so an edited provider is discovered afresh.
    const key = `${p.id} ${p.issuer} ${p.client_id} ${p.client_secret ?? ''}`;
    const cached = discovered.get(key);
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
    const clientSecret = p.client_secret ? secret.decrypt(p.client_secret) : null;
    const issuer = new URL(p.issuer);
    // Plain http only for a provider on this machine (tests, a local Keycloak); anything else must be https.
    const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname);
    const config = await oidc.discovery(issuer, p.client_id, clientSecret ?? undefined, undefined, loopback ? { execute: [oidc.allowInsecureRequests], timeout: 10 } : { timeout: 10 });
    discovered.set(key, { at: Date.now(), config });
    return config;
  }

  async function activeProvider() {
    const p = (await db.selectFrom('sso_providers').selectAll().where('enabled', '=', true).orderBy('id').executeTakeFirst()) as ProviderRow | undefined;
    if (!p) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': '未配置单点登录', 'en-US': 'Single sign-on is not configured' });
    return p;
  }

  const redirectUriOf = (p: { redirect_uri: string }, headers: Record<string, unknown>) => {
    if (p.redirect_uri) return p.redirect_uri;
    const proto = typeof headers['x-forwarded-proto'] === 'string' ? headers['x-forwarded-proto'] : 'http';
    return `${proto}://${String(headers.host)}/api/sso/login`;
  };

  /** Step 2's work; returns the outcome stored for the status call. */
  async function complete(login: { provider_id: number; code_verifier: string; nonce: string; state: string; redirect_uri: string }, query: Record<string, string>): Promise<{ userId: number } | { error: LocalizedText }> {
    const provider = (await db.selectFrom('sso_providers').selectAll().where('id', '=', login.provider_id).executeTakeFirstOrThrow()) as ProviderRow;
    const config = await configFor(provider);
    const current = new URL(login.redirect_uri);
    for (const [k, v] of Object.entries(query)) current.searchParams.set(k, v);
    let claims: Record<string, unknown> & { sub: string };
    try {
      const tokens = await oidc.authorizationCodeGrant(config, current, { pkceCodeVerifier: login.code_verifier, expectedState: login.state, expectedNonce: login.nonce, idTokenExpected: true });
      const idToken = tokens.claims();
      if (!idToken?.sub) return { error: { 'zh-CN': '单点登录失败：身份提供方没有发送用户标识（subject）', 'en-US': 'Single sign-on failed: the identity provider sent no subject' } };
      // Providers may keep profile claims out of the ID token; the userinfo answer carries them
      // (its subject is checked against the ID token's).
      const info = tokens.access_token ? await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub) : {};
      claims = { ...info, ...idToken, sub: idToken.sub };
    } catch (err) {
      logger.warn(`single sign-on code exchange failed: ${(err as Error).message}`);
      return { error: { 'zh-CN': `单点登录失败：${(err as Error).message}`, 'en-US': `Single sign-on failed: ${(err as Error).message}` } };
    }
    const username = typeof claims.preferred_username === 'string' && claims.preferred_username ? claims.preferred_username : claims.sub;
    const source = `oidc:${provider.issuer}`;
    // An unlinked account of the same name is linked: the administrator who configured this
    // provider trusts its usernames. An account linked elsewhere is never taken over.
    const byName = await db.selectFrom('users').select(['id', 'external_source']).where('username', '=', username).executeTakeFirst();
    const linked = await db.selectFrom('users').select('id').where('external_source', '=', source).where('external_subject', '=', claims.sub).executeTakeFirst();
    if (!linked && byName && byName.external_source === null) {
      await db.updateTable('users').set({ external_source: source, external_subject: claims.sub }).where('id', '=', byName.id).execute();
      return { userId: byName.id };
    }
    try {
      const { userId } = await provisionExternalUser(db, {
        source,
        subject: claims.sub,
        username,
        realName: typeof claims.name === 'string' ? claims.name : null,
        email: typeof claims.email === 'string' ? claims.email : null,
        userType: UserType.SSO,
      });
      return { userId };
    } catch (err) {
      if (err instanceof UsernameTaken) return { error: { 'zh-CN': `单点登录失败：账户名 ${err.username} 已被另一个账户使用，请联系管理员`, 'en-US': `Single sign-on failed: ${err.message}; ask an administrator` } };
      throw err;
    }
  }

  return [
    {
      // Whether the login page offers single sign-on at all (an enabled provider exists).
      method: 'GET',
      url: '/sso/client/isEnabled',
      access: 'public',
      log: false,
      summary: 'Whether single sign-on is offered',
      response: { data: z.boolean() },
      async handler() {
        const p = await db.selectFrom('sso_providers').select('id').where('enabled', '=', true).executeTakeFirst();
        return p !== undefined;
      },
    },
    {
      method: 'GET',
      url: '/sso/client/getSSOLoginPage',
      access: 'public',
      summary: 'Start a single sign-on at the identity provider',
      response: { data: z.object({ url: z.string().describe('Where to send the browser'), ticket: z.string().describe('For GET /sso/client/getSSOStatus') }), errors: [404, 503] },
      async handler({ headers }) {
        const provider = await activeProvider();
        let config: oidc.Configuration;
        try {
          config = await configFor(provider);
        } catch (err) {
          logger.warn(`single sign-on discovery of ${provider.issuer} failed: ${(err as Error).message}`);
          throw new ApiError(Codes.SERVICE_INTERRUPTED, { 'zh-CN': '无法连接身份提供方，请稍后再试', 'en-US': 'The identity provider cannot be reached; try again later' });
        }
        const at = now();
        await db.deleteFrom('sso_logins').where('created_at', '<', new Date(at.getTime() - 24 * 3_600_000)).execute();
        const verifier = oidc.randomPKCECodeVerifier();
        const state = oidc.randomState();
        const nonce = oidc.randomNonce();
        const redirectUri = redirectUriOf(provider, headers as Record<string, unknown>);
        const url = oidc.buildAuthorizationUrl(config, {
          redirect_uri: redirectUri,
          scope: provider.scopes,
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          state,
          nonce,
        });
        const ticket = secret.sign(`sso:${state}`);
        await db.insertInto('sso_logins').values({ state, provider_id: provider.id, code_verifier: verifier, nonce, redirect_uri: redirectUri, created_at: at, ticket_hash: ticketHash(ticket) }).execute();
        return { url: url.href, ticket };
      },
    },
    {
      method: 'GET',
      url: '/sso/login',
      access: 'public',
      summary: "Receive the identity provider's single sign-on answer",
      response: { envelope: false, contentType: 'text/plain' },
      schema: { query: z.record(z.string(), z.string()) },
      async handler({ query }) {
        const state = query.state ?? '';
        const login = state ? ((await db.selectFrom('sso_logins').selectAll().where('state', '=', state).executeTakeFirst()) as LoginRow | undefined) : undefined;
        if (!login) return { raw: true as const, status: 302, headers: { location: '/sso?error=unknown-state' }, contentType: 'text/plain', body: '' };
        const at = now();
        let outcome: { userId: number } | { error: LocalizedText };
        if (login.completed_at) outcome = { error: { 'zh-CN': '该单点登录应答已被使用', 'en-US': 'This single sign-on answer was already used' } };
        else if (at.getTime() - new Date(login.created_at).getTime() > SSO_LOGIN_VALIDITY_MS) outcome = { error: { 'zh-CN': '单点登录超时，请重新开始', 'en-US': 'Single sign-on took too long; start again' } };
        else if (query.error) outcome = { error: { 'zh-CN': `身份提供方拒绝了登录：${query.error_description ?? query.error}`, 'en-US': `The identity provider refused: ${query.error_description ?? query.error}` } };
        else outcome = await complete(login, query);
        // Only the first answer for a state counts (a replayed redirect changes nothing).
        await db
          .updateTable('sso_logins')
          .set({ completed_at: at, user_id: 'userId' in outcome ? outcome.userId : null, outcome: 'error' in outcome ? JSON.stringify(outcome.error) : 'ok' })
          .where('state', '=', state)
          .where('completed_at', 'is', null)
          .execute();
        const ticket = secret.sign(`sso:${state}`);
        return { raw: true as const, status: 302, headers: { location: `/sso?ticket=${encodeURIComponent(ticket)}` }, contentType: 'text/plain', body: '' };
      },
    },
    {
      method: 'GET',
      url: '/sso/client/getSSOStatus',
      access: 'public',
      summary: 'Collect the session of a finished single sign-on',
      response: { data: sessionAnswer, errors: [304, 4014, 4015] },
      schema: { query: z.object({ ticket: z.string().min(1) }) },
      async handler({ query }) {
        const at = now();
        const login = (await db.selectFrom('sso_logins').selectAll().where('ticket_hash', '=', ticketHash(query.ticket)).executeTakeFirst()) as LoginRow | undefined;
        if (!login || at.getTime() - new Date(login.created_at).getTime() > 2 * SSO_LOGIN_VALIDITY_MS) throw new ApiError(Codes.AUTH_FAILED, { 'zh-CN': '单点登录票据不存在或已过期，请重新开始', 'en-US': 'Unknown or expired single sign-on ticket; start again' });
        if (!login.completed_at) throw new ApiError(Codes.SSO_PENDING, { 'zh-CN': '单点登录尚未完成', 'en-US': 'Single sign-on not finished yet' });
        if (login.outcome !== 'ok' || !login.user_id) throw new ApiError(Codes.AUTH_FAILED, storedOutcome(login.outcome));
        await checkAccount(deps, login.user_id, at);
        const status = await passwordStatus(db, login.user_id, at);
        if (status?.need) throw new ApiError(Codes.LOGIN_NEEDS_ACTION, PASSWORD_EXPIRED_MSG, { userId: login.user_id, reason: 'password' });
        if ((await departmentsOf(db, login.user_id)).length === 0) {
          throw new ApiError(Codes.LOGIN_NEEDS_ACTION, { 'zh-CN': '您的账户还不属于任何部门：请联系管理员将您加入部门', 'en-US': 'Your account has no department yet: ask an administrator to add you to one' }, { userId: login.user_id, reason: 'department' });
        }
        const claimed = await db.updateTable('sso_logins').set({ collected_at: at }).where('state', '=', login.state).where('collected_at', 'is', null).returning('state').executeTakeFirst();
        if (!claimed) throw new ApiError(Codes.AUTH_FAILED, { 'zh-CN': '该单点登录票据已被使用', 'en-US': 'This single sign-on ticket was already used' });
        return startSession(deps, login.user_id, at);
      },
    },
  ];
}
