import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ApiError, type RouteDefinition } from '@linguaport/sdk/server';
import { Codes, idSchema } from '@linguaport/sdk/shared';
import type { AuthRouteDeps } from './routes.js';
import type { KernelTables } from '../db/schema.js';

/**
 * Administration of the outside sign-in sources: directory domains (`directory:manage`) and single
 * sign-on providers (`sso:manage`). Secrets are write-only: lists say whether one is set, never
 * what it is; leaving a secret out of an update keeps the stored one, an empty string clears it.
 */

const domainBody = z.object({
  symbol: z.string().trim().regex(/^[A-Za-z0-9_.-]{1,32}$/, 'The symbol must be 1 to 32 letters, digits or _ . -'),
  name: z.string().trim().min(1).max(100),
  url: z.string().trim().regex(/^ldaps?:\/\/\S+$/, 'The address must start with ldap:// or ldaps://'),
  bindDn: z.string().trim().max(500).nullable().optional(),
  bindPassword: z.string().max(500).optional(),
  baseDn: z.string().trim().min(1).max(500),
  userFilter: z.string().trim().refine((f) => f.includes('{username}') && f.startsWith('(') && f.endsWith(')'), 'The filter must be in parentheses and contain {username}').default('(uid={username})'),
  enabled: z.boolean().default(true),
});

const providerBody = z.object({
  id: idSchema.optional(),
  name: z.string().trim().min(1).max(100),
  issuer: z.string().trim().url(),
  clientId: z.string().trim().min(1).max(500),
  clientSecret: z.string().max(1000).optional(),
  redirectUri: z.union([z.string().trim().url(), z.literal('')]).optional(),
  scopes: z.string().trim().refine((s) => s.split(/\s+/).includes('openid'), 'The scopes must include openid').default('openid profile email'),
  enabled: z.boolean().default(true),
});

const domainAnswer = z.object({ id: z.number().int(), symbol: z.string(), name: z.string(), url: z.string(), bindDn: z.string().nullable(), hasBindPassword: z.boolean(), baseDn: z.string(), userFilter: z.string(), enabled: z.boolean() });
const providerAnswer = z.object({ id: z.number().int(), name: z.string(), issuer: z.string(), clientId: z.string(), hasClientSecret: z.boolean(), redirectUri: z.string(), scopes: z.string(), enabled: z.boolean() });

async function listDomains(db: Kysely<KernelTables>) {
  const rows = await db.selectFrom('directory_domains').selectAll().orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, symbol: r.symbol, name: r.name, url: r.url, bindDn: r.bind_dn, hasBindPassword: !!r.bind_password, baseDn: r.base_dn, userFilter: r.user_filter, enabled: r.enabled }));
}

async function listProviders(db: Kysely<KernelTables>) {
  const rows = await db.selectFrom('sso_providers').selectAll().orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, name: r.name, issuer: r.issuer, clientId: r.client_id, hasClientSecret: !!r.client_secret, redirectUri: r.redirect_uri, scopes: r.scopes, enabled: r.enabled }));
}

export function signInAdminRoutes(deps: AuthRouteDeps): RouteDefinition[] {
  const { db, secret } = deps;
  /** The secret's column to write: none when the secret was left out (the stored one stays), null when empty (cleared). */
  const sealed = (column: string, value: string | undefined): Record<string, string | null> =>
    value === undefined ? {} : { [column]: value === '' ? null : secret.encrypt(value) };
  return [
    { method: 'GET', url: '/ldap/domains', access: { permission: 'directory:manage' }, summary: 'List directory domains', response: { data: z.array(domainAnswer) }, handler: () => listDomains(db) },
    {
      method: 'POST',
      url: '/ldap/domains',
      access: { permission: 'directory:manage' },
      module: 'auth',
      summary: 'Save a directory domain',
      response: { data: domainAnswer },
      schema: { body: domainBody },
      async handler({ body }) {
        const values = { symbol: body.symbol, name: body.name, url: body.url, bind_dn: body.bindDn || null, base_dn: body.baseDn, user_filter: body.userFilter, enabled: body.enabled, ...sealed('bind_password', body.bindPassword) };
        await db.insertInto('directory_domains').values(values).onConflict((oc) => oc.column('symbol').doUpdateSet(values)).execute();
        return (await listDomains(db)).find((d) => d.symbol === body.symbol);
      },
    },
    {
      method: 'DELETE',
      url: '/ldap/domains/:symbol',
      access: { permission: 'directory:manage' },
      module: 'auth',
      summary: 'Delete a directory domain',
      response: { data: z.null(), errors: [404] },
      schema: { params: z.object({ symbol: z.string().min(1) }) },
      async handler({ params }) {
        const gone = await db.deleteFrom('directory_domains').where('symbol', '=', params.symbol).returning('id').executeTakeFirst();
        if (!gone) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `目录域 ${params.symbol} 不存在`, 'en-US': `No directory domain ${params.symbol}` });
        // Accounts made from it stay (with their data); they cannot sign in until a domain of that symbol exists again.
        return null;
      },
    },
    { method: 'GET', url: '/sso/providers', access: { permission: 'sso:manage' }, summary: 'List single sign-on providers', response: { data: z.array(providerAnswer) }, handler: () => listProviders(db) },
    {
      method: 'POST',
      url: '/sso/providers',
      access: { permission: 'sso:manage' },
      module: 'auth',
      summary: 'Save a single sign-on provider',
      response: { data: providerAnswer, errors: [404] },
      schema: { body: providerBody },
      async handler({ body }) {
        const values = { name: body.name, issuer: body.issuer, client_id: body.clientId, redirect_uri: body.redirectUri ?? '', scopes: body.scopes, enabled: body.enabled, ...sealed('client_secret', body.clientSecret) };
        let id = body.id;
        if (id) {
          const updated = await db.updateTable('sso_providers').set(values).where('id', '=', id).returning('id').executeTakeFirst();
          if (!updated) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `编号为 ${id} 的单点登录提供方不存在`, 'en-US': `No single sign-on provider with id ${id}` });
        } else {
          id = (await db.insertInto('sso_providers').values(values).returning('id').executeTakeFirstOrThrow()).id as number;
        }
        return (await listProviders(db)).find((p) => p.id === id);
      },
    },
    {
      method: 'DELETE',
      url: '/sso/providers/:id',
      access: { permission: 'sso:manage' },
      module: 'auth',
      summary: 'Delete a single sign-on provider',
      response: { data: z.null(), errors: [404] },
      schema: { params: z.object({ id: idSchema }) },
      async handler({ params }) {
        const gone = await db.deleteFrom('sso_providers').where('id', '=', params.id).returning('id').executeTakeFirst();
        if (!gone) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `编号为 ${params.id} 的单点登录提供方不存在`, 'en-US': `No single sign-on provider with id ${params.id}` });
        return null;
      },
    },
  ];
}
