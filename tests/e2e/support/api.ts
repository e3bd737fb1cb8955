import { constants, createPublicKey, publicEncrypt } from 'node:crypto';
import { baseUrl } from './session.js';

/**
 * The platform's API from a spec, as an administrator would use it: sign in (RSA-OAEP like the
 * login page), then create the users, roles and departments a scenario needs, so specs do not
 * depend on each other's data.
 */
export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

export class Api {
  constructor(readonly token: string) {}

  static async signIn(username = 'admin', password = process.env.E2E_ADMIN_PASSWORD!): Promise<Api> {
    const env = await login(username, password);
    if (env.code !== 200) throw new Error(`sign-in of ${username} answered ${env.code} ${env.msg}`);
    return new Api(env.data.token);
  }

  async raw<T = unknown>(method: string, url: string, body?: unknown): Promise<Envelope<T>> {
    const res = await fetch(`${baseUrl()}/api${url}`, {
      method,
      headers: { Jwt: this.token, 'Accept-Language': 'en-US', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.json()) as Envelope<T>;
  }

  async call<T = unknown>(method: string, url: string, body?: unknown): Promise<T> {
    const env = await this.raw<T>(method, url, body);
    if (env.code !== 200) throw new Error(`${method} ${url} answered ${env.code}: ${env.msg}`);
    return env.data;
  }

  /** Permission-node ids of the menu entries with these paths (the kernel adds their parents when granting). */
  async permissionIds(paths: string[]): Promise<number[]> {
    const tree = await this.call<Node[]>('GET', '/permissionMenu/getAllPermissionMenu');
    const out: number[] = [];
    const walk = (nodes: Node[]) => nodes.forEach((n) => (paths.includes(n.path ?? '') && out.push(n.id), walk(n.children ?? [])));
    walk(tree);
    if (out.length !== paths.length) throw new Error(`menu nodes for ${paths.join(', ')}: found ${out.length}`);
    return out;
  }

  /** A role granted exactly the menus with these paths. */
  async role(name: string, paths: string[]): Promise<number> {
    const created = await this.call<{ id: number } | number>('POST', '/role/add', { name, description: 'e2e' });
    const id = typeof created === 'number' ? created : created.id;
    await this.call('PUT', `/role/permissions/${id}`, { permissionIds: await this.permissionIds(paths) });
    return id;
  }

  async department(name: string): Promise<number> {
    const created = await this.call<{ id: number } | number>('POST', '/department/add', { name, code: name.replace(/[^A-Za-z0-9_-]/g, '-'), roleIds: [] });
    return typeof created === 'number' ? created : created.id;
  }

  async user(username: string, password: string, departmentIds: number[], roleIds: number[]): Promise<number> {
    const created = await this.call<{ id: number } | number>('POST', '/user/add', {
      username, realName: `E2E ${username}`, password, confirmPassword: password, departmentIds, roleIds,
    });
    return typeof created === 'number' ? created : created.id;
  }

  /** A new user in a department of its own, whose only role grants these menus (by path) and permission keys. */
  async userWith(paths: string[], keys: string[], password: string, prefix = 'user'): Promise<{ username: string; id: number }> {
    const tree = await this.call<Node[]>('GET', '/permissionMenu/getAllPermissionMenu');
    const ids: number[] = [];
    const walk = (nodes: Node[]) => nodes.forEach((n) => ((paths.some((p) => n.key === `menu:${p}`) || keys.includes(n.key ?? '')) && ids.push(n.id), walk(n.children ?? [])));
    walk(tree);
    if (ids.length !== paths.length + keys.length) throw new Error(`permission nodes for ${[...paths, ...keys].join(', ')}: found ${ids.length}`);
    const role = await this.call<{ id: number } | number>('POST', '/role/add', { name: unique(`e2e-${prefix}-`), description: 'e2e' });
    const roleId = typeof role === 'number' ? role : role.id;
    await this.call('PUT', `/role/permissions/${roleId}`, { permissionIds: ids });
    const department = await this.department(unique(`e2e-${prefix}-dept-`));
    const username = unique(prefix);
    return { username, id: await this.user(username, password, [department], [roleId]) };
  }

  /** A multipart upload: form fields and files (sent under the field name `files`). */
  async upload<T = unknown>(url: string, fields: Record<string, string>, files: Array<{ name: string; content: Buffer; type?: string }>): Promise<T> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    for (const f of files) form.append('files', new Blob([new Uint8Array(f.content)], { type: f.type ?? 'application/octet-stream' }), f.name);
    const res = await fetch(`${baseUrl()}/api${url}`, { method: 'POST', headers: { Jwt: this.token, 'Accept-Language': 'en-US' }, body: form });
    const env = (await res.json()) as Envelope<T>;
    if (env.code !== 200) throw new Error(`POST ${url} answered ${env.code}: ${env.msg}`);
    return env.data;
  }

  /**
   * Adds menus to the default normal-user role, which directory, single sign-on and self-registered
   * accounts receive (a role without menus signs them straight out again, spec 01 2.6).
   */
  async grantDefaultRole(paths: string[]): Promise<void> {
    const roles = await this.call<{ id: number; isDefault: boolean; isSuper: boolean }[]>('GET', '/role/list');
    const role = roles.find((r) => r.isDefault && !r.isSuper);
    if (!role) throw new Error('no default role');
    const current = await this.call<{ permissionIds: number[] }>('GET', `/role/permissions/${role.id}`);
    const wanted = [...new Set([...current.permissionIds, ...(await this.permissionIds(paths))])];
    await this.call('PUT', `/role/permissions/${role.id}`, { permissionIds: wanted });
  }

  async setConfig(configKey: string, configValue: string): Promise<void> {
    await this.call('PUT', '/systemConfig/updateConfig', { configKey, configValue });
  }
}

interface Node {
  id: number;
  key?: string;
  path?: string | null;
  children?: Node[];
}

/**
 * A one-time sign-in key. The server gives one address only so many a minute (then 429 with how long
 * to wait), and every spec signs in from 127.0.0.1: wait as told and ask again, as a client should.
 */
async function oneTimeKey(): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${baseUrl()}/api/user/getOnePublicKey`);
    const body = (await res.json()) as Envelope<string>;
    if (typeof body.data === 'string') return body.data;
    const wait = Number(res.headers.get('retry-after') ?? 5);
    if (attempt >= 6) throw new Error(`no sign-in key after ${attempt + 1} tries: ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, Math.min(60, Math.max(1, wait)) * 1000));
  }
}

export async function login(username: string, password: string): Promise<Envelope<{ token: string; userId: number }>> {
  const key = await oneTimeKey();
  const cipher = publicEncrypt(
    { key: createPublicKey({ key: Buffer.from(key, 'base64'), format: 'der', type: 'spki' }), padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(password),
  );
  const form = new FormData();
  form.set('username', username);
  form.set('password', cipher.toString('base64'));
  form.set('publicKey', key);
  form.set('symbol', '');
  return (await (await fetch(`${baseUrl()}/api/login`, { method: 'POST', body: form })).json()) as Envelope<{ token: string; userId: number }>;
}

/** A name no other spec or run uses. */
export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
