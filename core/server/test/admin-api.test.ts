import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@linguaport/sdk/testing';
import WebSocket from 'ws';
import { ADMIN_PASSWORD, createUserWithRole, FIXTURES, startKernel, type TestKernel } from './support/kernel.js';

// The kernel's admin API through the real routes on a real database: menus and role grants,
// permission events over the WebSocket, system configuration, messages, the expired-engine list and
// the operation log. The fixture plugin `pager` reaches ctx.messages, ctx.settings and the
// access.changed bridge the way a product plugin does.

let k: TestKernel;
let wsBase: string;
let admin: string;
let nobody: { userId: number; roleId: number };
let nobodyToken: string;
let alice: { userId: number; roleId: number; departmentId: number };
let aliceToken: string;
let bob: { userId: number };
let bobToken: string;
let menuAdminToken: string;
let configAdminToken: string;

beforeAll(async () => {
  k = await startKernel({ registryFile: join(FIXTURES, 'registry-admin.json') });
  await k.app.listen({ port: 0, host: '127.0.0.1' });
  wsBase = `ws://127.0.0.1:${(k.app.server.address() as { port: number }).port}/api/ws`;
  admin = await k.login('admin', ADMIN_PASSWORD);
  nobody = await createUserWithRole(k, 'nobody', 'Nobody-pass-1', 'No grants', []);
  alice = await createUserWithRole(k, 'alice', 'Alice-pass-1', 'Pager users', ['menu:/pager', 'pager:send', 'pager:settings']);
  bob = await createUserWithRole(k, 'bob', 'Bob-pass-1', 'Note readers', ['menu:/notes']);
  // The menu admins hold the keys they grant below (a grant changes only keys the caller holds).
  await createUserWithRole(k, 'menuadmin', 'Menu-pass-1', 'Menu admins', ['permission:view', 'permission:add', 'permission:edit', 'permission:delete', 'role:grant', 'menu:/pager', 'pager:send', 'pager:settings', 'notes:view']);
  await createUserWithRole(k, 'configadmin', 'Config-pass-1', 'Config admins', ['systemConfig:edit']);
  [nobodyToken, aliceToken, bobToken, menuAdminToken, configAdminToken] = await Promise.all([
    k.login('nobody', 'Nobody-pass-1'),
    k.login('alice', 'Alice-pass-1'),
    k.login('bob', 'Bob-pass-1'),
    k.login('menuadmin', 'Menu-pass-1'),
    k.login('configadmin', 'Config-pass-1'),
  ]);
}, 120_000);
afterAll(async () => {
  await k?.shutdown();
});

interface Socket {
  received: { type: string; payload: any }[];
  waitFor(type: string, match?: (payload: any) => boolean): Promise<{ type: string; payload: any }>;
  close(): void;
}

async function connect(token: string): Promise<Socket> {
  const socket = new WebSocket(`${wsBase}?token=${encodeURIComponent(token)}`);
  const received: Socket['received'] = [];
  socket.on('message', (data) => received.push(JSON.parse(String(data))));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  // The server says when its subscription is in place; events published after that reach us.
  await expect.poll(() => received.some((m) => m.type === 'ws.ready'), { timeout: 10_000, interval: 20 }).toBe(true);
  return {
    received,
    waitFor: (type, match = () => true) =>
      until(() => received.find((m) => m.type === type && match(m.payload)), { timeout: 5000, what: () => `a ${type} message (received: ${JSON.stringify(received)})` }),
    close: () => socket.close(),
  };
}

const count = async (table: string) => Number((await k.database.query<{ n: string }>(`select count(*) as n from ${table}`, []))[0].n);
const en = { 'accept-language': 'en-US' };
async function callEn(method: string, url: string, token: string | null, payload?: unknown) {
  const res = await k.app.inject({ method: method as 'GET', url, headers: { ...en, ...(token ? { jwt: token } : {}) }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: res.json() };
}

function findNode(tree: any[], key: string): any {
  for (const n of tree) {
    if (n.key === key) return n;
    const inner = findNode(n.children ?? [], key);
    if (inner) return inner;
  }
  return null;
}

describe('permission tree', () => {
  it('lists every active node with both names, flags and owner, leaving out disabled plugins', async () => {
    const res = await callEn('GET', '/api/permissionMenu/getAllPermissionMenu', menuAdminToken);
    expect(res.body.code).toBe(200);
    const tree = res.body.data;
    const notes = findNode(tree, 'menu:/notes');
    expect(notes).toMatchObject({ path: '/notes', permissionType: 1, pluginId: 'notes', nameEn: 'Notebook', permissionName: 'Notebook', showInMenu: true, owned: true });
    expect(notes.children.map((c: any) => c.key).sort()).toEqual(['notes:add', 'notes:view']);
    const system = findNode(tree, 'group:system');
    expect(system.children.map((c: any) => c.key)).toEqual(expect.arrayContaining(['permission:add', 'role:grant', 'systemConfig:edit', 'menu:/pager']));
    expect(findNode(tree, 'menu:/archive')).toBeNull();
    expect(findNode(tree, 'archive:view')).toBeNull();
  });

  it('refuses a node without name, key or address, with a relative address, or a sort that is not a positive integer, naming each field', async () => {
    const before = await count('permissions');
    const res = await callEn('POST', '/api/permissionMenu/add', menuAdminToken, { permissionType: 1, key: '', path: 'reports', sort: 0 });
    expect(res.status).toBe(400);
    for (const field of ['permissionName', 'key', 'path', 'sort']) expect(res.body.msg).toContain(`body.${field}`);
    const relative = await callEn('POST', '/api/permissionMenu/add', menuAdminToken, { permissionName: 'Reports', permissionType: 1, key: 'menu:/reports', path: 'reports', sort: 3 });
    expect(relative.body.msg).toContain('menu address must start with a slash');
    expect(await count('permissions')).toBe(before);
  });

  it('adds, reads, edits and deletes an admin-made node and tells everyone the tree changed', async () => {
    const bobSocket = await connect(bobToken);
    const added = await callEn('POST', '/api/permissionMenu/add', menuAdminToken, { nameZh: '报表', nameEn: 'Reports', permissionType: 4, key: 'link:reports', path: 'https://reports.example.org/', sort: 7 });
    expect(added.body.code).toBe(200);
    const id = added.body.data.id;
    await bobSocket.waitFor('permissions.changed', (p) => p.all === true);
    expect((await callEn('POST', '/api/permissionMenu/add', menuAdminToken, { permissionName: 'Again', permissionType: 3, key: 'link:reports', path: '/x' })).status).toBe(409);
    const read = await callEn('GET', `/api/permissionMenu/getPermissionMenuById/${id}`, menuAdminToken);
    expect(read.body.data).toMatchObject({ id, key: 'link:reports', nameZh: '报表', permissionName: 'Reports', permissionType: 4, sort: 7, owned: false, pluginId: null });
    const edited = await callEn('PUT', '/api/permissionMenu/update', menuAdminToken, { id, nameZh: '报表', nameEn: 'Monthly reports', permissionType: 4, key: 'link:reports', path: 'https://reports.example.org/', sort: 2, showInShortcut: true });
    expect(edited.body.data).toMatchObject({ permissionName: 'Monthly reports', sort: 2, showInShortcut: true });
    expect((await callEn('DELETE', `/api/permissionMenu/deleteBatch?ids=${id}`, menuAdminToken)).body.data).toEqual({ deleted: 1 });
    expect((await callEn('GET', `/api/permissionMenu/getPermissionMenuById/${id}`, menuAdminToken)).status).toBe(404);
    bobSocket.close();
  });

  it('refuses to delete plugin-owned or kernel nodes, or to change their key, type or path, and says who owns them', async () => {
    const tree = (await callEn('GET', '/api/permissionMenu/getAllPermissionMenu', menuAdminToken)).body.data;
    const notes = findNode(tree, 'menu:/notes');
    const grant = findNode(tree, 'role:grant');
    const del = await callEn('DELETE', `/api/permissionMenu/deleteBatch?ids=${notes.id},${grant.id}`, menuAdminToken);
    expect(del.status).toBe(409);
    expect(del.body.msg).toContain('menu:/notes (plugin notes)');
    expect(del.body.msg).toContain('role:grant (the kernel)');
    const moved = await callEn('PUT', '/api/permissionMenu/update', menuAdminToken, { ...notes, path: '/elsewhere' });
    expect(moved.status).toBe(400);
    expect(moved.body.msg).toContain('declared by plugin notes');
    const renamed = await callEn('PUT', '/api/permissionMenu/update', menuAdminToken, { ...notes, nameEn: 'My notes' });
    expect(renamed.status).toBe(400);
    expect(renamed.body.msg).toContain("plugin notes's locale files");
    // Admins may still re-order and re-icon a plugin's node.
    const reordered = await callEn('PUT', '/api/permissionMenu/update', menuAdminToken, { ...notes, sort: 4, icon: 'book' });
    expect(reordered.body.data).toMatchObject({ sort: 4, icon: 'book', path: '/notes' });
  });

  it('gives each user the permitted entries flagged show-in-shortcut as quick menu, and only their own', async () => {
    const quick = await callEn('GET', `/api/permissionMenu/getQuickMenu?userId=${alice.userId}&departmentId=${alice.departmentId}`, aliceToken);
    expect(quick.body.data.map((n: any) => n.path)).toEqual(['/pager']);
    expect((await callEn('GET', '/api/permissionMenu/getQuickMenu', bobToken)).body.data).toEqual([]);
    expect((await callEn('GET', `/api/permissionMenu/getQuickMenu?userId=${alice.userId}`, bobToken)).status).toBe(403);
  });
});

describe('role grants and permission events', () => {
  it('replaces a role grant, pushes permissions.changed to its holders only, and the new key works at once', async () => {
    const aliceSocket = await connect(aliceToken);
    const bobSocket = await connect(bobToken);
    const ids = (await k.database.query<{ id: number }>(`select id from permissions where key in ('menu:/pager', 'pager:send', 'pager:settings', 'notes:view') order by id`, [])).map((r) => r.id);
    const res = await callEn('PUT', `/api/role/permissions/${alice.roleId}`, menuAdminToken, { permissionIds: ids });
    expect(res.body.data).toMatchObject({ roleId: alice.roleId, notifiedUsers: 1 });
    const event = await aliceSocket.waitFor('permissions.changed');
    expect(event.payload).toEqual({ userIds: [alice.userId] });
    expect(bobSocket.received.filter((m) => m.type === 'permissions.changed' && !m.payload.all)).toEqual([]);
    expect((await callEn('GET', `/api/role/permissions/${alice.roleId}`, menuAdminToken)).body.data.permissionIds).toEqual(ids);
    expect((await callEn('GET', '/api/notes/list', aliceToken)).body.code).toBe(200);
    aliceSocket.close();
    bobSocket.close();
  });

  it('refuses unknown permission ids and the super role, changing nothing', async () => {
    const before = await count('role_permissions');
    const unknown = await callEn('PUT', `/api/role/permissions/${alice.roleId}`, menuAdminToken, { permissionIds: [999999] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toContain('999999');
    const superRole = (await k.database.query<{ id: number }>(`select id from roles where is_super`, []))[0].id;
    expect((await callEn('PUT', `/api/role/permissions/${superRole}`, menuAdminToken, { permissionIds: [] })).status).toBe(400);
    expect(await count('role_permissions')).toBe(before);
  });

  it('changes a grant only in keys the caller holds: no key handed out to any role, its own included, and none taken away', async () => {
    const idOf = async (key: string) => (await k.database.query<{ id: number }>(`select id from permissions where key = $1`, [key]))[0].id;
    const menuAdminRole = (await k.database.query<{ role_id: number }>(`select role_id from user_department_roles udr join users u on u.id = udr.user_id where u.username = 'menuadmin'`, []))[0].role_id;
    const own = (await callEn('GET', `/api/role/permissions/${menuAdminRole}`, menuAdminToken)).body.data.permissionIds as number[];
    const before = await count('role_permissions');
    const configEdit = await idOf('systemConfig:edit');
    const toSelf = await callEn('PUT', `/api/role/permissions/${menuAdminRole}`, menuAdminToken, { permissionIds: [...own, configEdit] });
    expect(toSelf.status).toBe(403);
    expect(toSelf.body.msg).toBe('You cannot grant the permission systemConfig:edit: you do not hold it yourself');
    const toAlice = await callEn('PUT', `/api/role/permissions/${alice.roleId}`, menuAdminToken, { permissionIds: [configEdit] });
    expect(toAlice.status).toBe(403);
    expect(await count('role_permissions')).toBe(before);
    // A role holding a key the caller lacks keeps it when the request leaves it in, and cannot lose it.
    await k.database.query(`insert into role_permissions (role_id, permission_id) values ($1, $2)`, [alice.roleId, configEdit]);
    const aliceNow = (await callEn('GET', `/api/role/permissions/${alice.roleId}`, menuAdminToken)).body.data.permissionIds as number[];
    const pagerSend = await idOf('pager:send');
    const kept = await callEn('PUT', `/api/role/permissions/${alice.roleId}`, menuAdminToken, { permissionIds: [...aliceNow.filter((i) => i !== pagerSend)] });
    expect(kept.status).toBe(200);
    const dropped = await callEn('PUT', `/api/role/permissions/${alice.roleId}`, menuAdminToken, { permissionIds: [] });
    expect(dropped.status).toBe(403);
    expect(dropped.body.msg).toBe('You cannot take away the permission systemConfig:edit: you do not hold it yourself');
    await callEn('PUT', `/api/role/permissions/${alice.roleId}`, menuAdminToken, { permissionIds: aliceNow });
  });

  it('turns a plugin\'s access.changed into permissions.changed for the affected users', async () => {
    const bobSocket = await connect(bobToken);
    const bobRole = (await k.database.query<{ role_id: number }>(`select role_id from user_department_roles where user_id = $1`, [bob.userId]))[0].role_id;
    expect((await callEn('POST', '/api/pager/accessChanged', aliceToken, { roleIds: [bobRole] })).body.code).toBe(200);
    expect((await bobSocket.waitFor('permissions.changed', (p) => Array.isArray(p.userIds))).payload).toEqual({ userIds: [bob.userId] });
    // The plugin's own event had an empty audience: no socket saw it.
    expect(bobSocket.received.some((m) => m.type === 'access.changed')).toBe(false);
    bobSocket.close();
  });
});

describe('system configuration', () => {
  it('gives the public the company entries but never the default password or the caps', async () => {
    const res = await callEn('OPTIONS', '/api/systemConfig/getCompanyInfoConfig', null);
    const keys = res.body.data.map((e: any) => e.configKey);
    expect(keys).toEqual(expect.arrayContaining(['SYSTEM_COLOR', 'DEFAULT_SOURCE_LANGUAGE', 'DEFAULT_TARGET_LANGUAGE', 'COMPANY_LOGO', 'IS_HAVE_LOG_OUT', 'SITE_TITLE', 'FILING_NUMBER']));
    expect(keys).not.toContain('DEFAULT_PASSWORD');
    expect(keys).not.toContain('TEXT_TRANSLATION_CAP');
  });

  it('seeds the translation caps and limits', async () => {
    const res = await callEn('GET', '/api/systemConfig/getSystemConfig', configAdminToken);
    const values = Object.fromEntries(res.body.data.map((e: any) => [e.configKey, e.configValue]));
    expect(values).toMatchObject({ TEXT_TRANSLATION_CAP: '5000', API_TRANSLATION_CAP: '100000', FILE_COUNT_LIMIT: '10', FILE_SIZE_LIMIT_MB: '20', QUEUE_LIMIT: '100' });
  });

  it('changes contact items and switches, and the public calls show them in the caller\'s language', async () => {
    const socket = await connect(nobodyToken);
    const res = await callEn('PUT', '/api/systemConfig/updateConfig', configAdminToken, [
      { configKey: 'CONTACT_PHONE', configValue: '400-800-1234' },
      { configKey: 'GUEST_LOGIN', configValue: '1' },
      { configKey: 'ALLOW_REGISTER', configValue: true },
    ]);
    expect(res.body.data.updated).toEqual(['CONTACT_PHONE', 'GUEST_LOGIN', 'ALLOW_REGISTER']);
    expect((await socket.waitFor('systemConfig.changed')).payload.values).toMatchObject({ GUEST_LOGIN: '1', CONTACT_PHONE: '400-800-1234' });
    const contact = await callEn('GET', '/api/systemConfig/getContactUsInfo', null);
    expect(contact.body.data).toHaveLength(4);
    expect(contact.body.data).toContainEqual({ configKey: 'CONTACT_PHONE', configName: 'Phone', configValue: '400-800-1234' });
    const zh = await k.call('GET', '/api/systemConfig/getContactUsInfo');
    expect(zh.body.data.find((e: any) => e.configKey === 'CONTACT_PHONE').configName).toBe('联系电话');
    expect((await callEn('OPTIONS', '/api/systemConfig/getGuestUserFlag', null)).body.data).toBe(true);
    expect((await callEn('OPTIONS', '/api/systemConfig/getLandingSliderFlag', null)).body.data).toBe(false);
    expect((await callEn('GET', '/api/systemConfig/isAllowRegister', null)).body.data).toBe(true);
    socket.close();
  });

  it('changes an entry only if its key exists and its value fits, all or nothing', async () => {
    const snapshot = await k.database.query(`select config_key, config_value from system_config order by config_key`, []);
    const unknown = await callEn('PUT', '/api/systemConfig/updateConfig', configAdminToken, [{ configKey: 'SITE_TITLE', configValue: 'Changed' }, { configKey: 'NO_SUCH_KEY', configValue: '1' }]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toContain('NO_SUCH_KEY: no such configuration key');
    const bad = await callEn('PUT', '/api/systemConfig/updateConfig', configAdminToken, [
      { configKey: 'SYSTEM_COLOR', configValue: 'blue' },
      { configKey: 'GUEST_LOGIN', configValue: 'yes' },
      { configKey: 'QUEUE_LIMIT', configValue: '0' },
    ]);
    expect(bad.body.msg).toMatch(/SYSTEM_COLOR: must be a hex colour.*GUEST_LOGIN: must be 0 or 1.*QUEUE_LIMIT: must be greater than zero/);
    // A Chinese console reads each problem in Chinese, field names as sent.
    const badZh = await k.call('PUT', '/api/systemConfig/updateConfig', configAdminToken, [
      { configKey: 'SYSTEM_COLOR', configValue: 'blue' },
      { configKey: 'GUEST_LOGIN', configValue: 'yes' },
      { configKey: 'QUEUE_LIMIT', configValue: '0' },
    ]);
    expect(badZh.body.msg).toBe('请求无效：SYSTEM_COLOR: 必须是十六进制颜色，例如 #353f9d; GUEST_LOGIN: 必须是 0 或 1; QUEUE_LIMIT: 必须大于 0');
    const caps = await callEn('PUT', '/api/systemConfig/updateSystemConfig', configAdminToken, { configKey: 'TEXT_TRANSLATION_CAP', configValue: '200000' });
    expect(caps.body.msg).toContain('the text cap may not exceed the API cap');
    expect(await k.database.query(`select config_key, config_value from system_config order by config_key`, [])).toEqual(snapshot);
    const ok = await callEn('PUT', '/api/systemConfig/updateSystemConfig', configAdminToken, { entries: [{ configKey: 'API_TRANSLATION_CAP', configValue: 300000 }, { configKey: 'TEXT_TRANSLATION_CAP', configValue: 200000 }] });
    expect(ok.body.code).toBe(200);
    expect((await callEn('GET', '/api/systemConfig/getOneConfigInfo?configKey=TEXT_TRANSLATION_CAP', nobodyToken)).body.data.configValue).toBe('200000');
  });

  it('shows the default password only to configuration admins and refuses changes without systemConfig:edit', async () => {
    expect((await callEn('GET', '/api/systemConfig/getOneConfigInfo?configKey=DEFAULT_PASSWORD', nobodyToken)).status).toBe(403);
    expect((await callEn('GET', '/api/systemConfig/getOneConfigInfo?configKey=DEFAULT_PASSWORD', configAdminToken)).body.data.valueType).toBe('secret');
    const refused = await callEn('PUT', '/api/systemConfig/updateConfig', nobodyToken, { configKey: 'SITE_TITLE', configValue: 'Hacked' });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toContain('systemConfig:edit');
    expect((await callEn('GET', '/api/systemConfig/getOneConfigInfo?configKey=SITE_TITLE', nobodyToken)).body.data.configValue).toBe('Linguaport');
  });

  it('never reads a secret back: every read shows a mask, the mask saved back keeps it, a new value replaces it, empty clears it', async () => {
    const stored = async () => (await k.database.query<{ v: string }>(`select config_value as v from system_config where config_key = 'DEFAULT_PASSWORD'`, []))[0]!.v;
    const original = await stored();
    expect(original.length).toBeGreaterThanOrEqual(8);
    const shown = async () => {
      const all = [
        ...(await callEn('GET', '/api/systemConfig/getConfig', configAdminToken)).body.data,
        ...(await callEn('GET', '/api/systemConfig/getConfig?group=account', configAdminToken)).body.data,
        ...(await callEn('GET', '/api/systemConfig/getSystemConfig', configAdminToken)).body.data,
        (await callEn('GET', '/api/systemConfig/getOneConfigInfo?configKey=DEFAULT_PASSWORD', configAdminToken)).body.data,
      ].filter((e: any) => e.configKey === 'DEFAULT_PASSWORD');
      expect(all).toHaveLength(4);
      return [...new Set(all.map((e: any) => e.configValue))];
    };
    expect(await shown()).toEqual(['********']);
    // A form saved with the mask untouched (next to a real change) keeps the stored secret.
    const kept = await callEn('PUT', '/api/systemConfig/updateConfig', configAdminToken, { entries: [{ configKey: 'DEFAULT_PASSWORD', configValue: '********' }, { configKey: 'PASSWORD_MAX_AGE_DAYS', configValue: '90' }] });
    expect(kept.body.data.updated).toEqual(['PASSWORD_MAX_AGE_DAYS']);
    expect(await stored()).toBe(original);
    const socket = await connect(nobodyToken);
    expect((await callEn('PUT', '/api/systemConfig/updateConfig', configAdminToken, { configKey: 'DEFAULT_PASSWORD', configValue: 'Another-Default-9' })).body.code).toBe(200);
    expect(JSON.stringify((await socket.waitFor('systemConfig.changed', (p) => p.keys.includes('DEFAULT_PASSWORD'))).payload)).not.toContain('Another-Default-9');
    socket.close();
    expect(await stored()).toBe('Another-Default-9');
    expect(await shown()).toEqual(['********']);
    expect((await callEn('PUT', '/api/systemConfig/updateConfig', configAdminToken, { configKey: 'DEFAULT_PASSWORD', configValue: 'short' })).status).toBe(400);
    expect((await callEn('PUT', '/api/systemConfig/updateConfig', configAdminToken, { configKey: 'DEFAULT_PASSWORD', configValue: '' })).body.code).toBe(200);
    expect(await shown()).toEqual(['']);
    await callEn('PUT', '/api/systemConfig/updateConfig', configAdminToken, { configKey: 'DEFAULT_PASSWORD', configValue: original });
    expect(await stored()).toBe(original);
  });

  it('grants the engine-expiry notice as a system-config permission that follows its switch', async () => {
    const adminInfo = (await k.call('GET', '/api/user/getUserInfoByToken', admin)).body.data;
    const menus = async () =>
      (await k.call('GET', `/api/permissionMenu/getPermissionMenu?userId=${adminInfo.user.id}&departmentId=${adminInfo.currentDepartmentId}`, admin)).body.data.systemConfigPermissionMenus;
    expect(await menus()).toContainEqual({ configKey: 'ENGINE_EXPIRY_NOTICE', configValue: '1' });
    const socket = await connect(bobToken);
    expect((await callEn('PUT', '/api/systemConfig/updateConfig', configAdminToken, { configKey: 'ENGINE_EXPIRY_NOTICE', configValue: '0' })).body.code).toBe(200);
    await socket.waitFor('permissions.changed', (p) => p.all === true);
    expect(await menus()).toContainEqual({ configKey: 'ENGINE_EXPIRY_NOTICE', configValue: '0' });
    await callEn('PUT', '/api/systemConfig/updateConfig', configAdminToken, { configKey: 'ENGINE_EXPIRY_NOTICE', configValue: '1' });
    socket.close();
  });

  it('lets a plugin read and change settings through ctx.settings, with the same checks', async () => {
    expect((await callEn('GET', '/api/pager/setting?key=QUEUE_LIMIT', aliceToken)).body.data).toBe('100');
    expect((await callEn('PUT', '/api/pager/setting', aliceToken, { key: 'QUEUE_LIMIT', value: '250' })).body.code).toBe(200);
    expect((await callEn('GET', '/api/pager/setting?key=QUEUE_LIMIT', aliceToken)).body.data).toBe('250');
    const unknown = await callEn('PUT', '/api/pager/setting', aliceToken, { key: 'PAGER_SECRET', value: 'x' });
    expect(unknown.status).toBe(400);
    expect((await callEn('GET', '/api/pager/setting?key=PAGER_SECRET', aliceToken)).body.data).toBeNull();
  });
});

function multipart(fields: Record<string, string>, file: { name: string; filename: string; type: string; data: Buffer }) {
  const boundary = '----a2test' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`), file.data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f6e52a0000000049454e44ae426082', 'hex');

describe('pictures', () => {
  const upload = (token: string, configKey: string, file: { filename: string; type: string; data: Buffer }) => {
    const body = multipart({ configKey }, { name: 'file', ...file });
    return k.app.inject({ method: 'POST', url: '/api/systemConfig/updatePictureConfig', headers: { jwt: token, ...en, ...body.headers }, payload: body.payload });
  };

  it('stores an uploaded logo and serves it back at the URL now in the entry', async () => {
    const res = (await upload(configAdminToken, 'COMPANY_LOGO', { filename: 'logo.png', type: 'image/png', data: PNG })).json();
    expect(res.data).toMatchObject({ configKey: 'COMPANY_LOGO', width: 142, height: 35 });
    expect(res.data.configValue).toMatch(/^\/api\/systemConfig\/picture\/company_logo-[0-9a-f]{16}\.png$/);
    const company = (await callEn('OPTIONS', '/api/systemConfig/getCompanyInfoConfig', null)).body.data;
    expect(company.find((e: any) => e.configKey === 'COMPANY_LOGO').configValue).toBe(res.data.configValue);
    const served = await k.app.inject({ method: 'GET', url: res.data.configValue });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(PNG)).toBe(true);
  });

  it('refuses a picture that is not an image, is 2 MB or more, or targets a non-picture key', async () => {
    const text = (await upload(configAdminToken, 'HOME_BANNER', { filename: 'x.png', type: 'image/png', data: Buffer.from('not an image') })).json();
    expect(text.msg).toContain('PNG, JPEG, SVG or WebP');
    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    expect((await upload(configAdminToken, 'HOME_BANNER', { filename: 'big.png', type: 'image/png', data: big })).json().msg).toContain('under 2 MB');
    expect((await upload(configAdminToken, 'SITE_TITLE', { filename: 'x.png', type: 'image/png', data: PNG })).json().msg).toContain('not a picture entry');
    expect((await upload(nobodyToken, 'HOME_BANNER', { filename: 'x.png', type: 'image/png', data: PNG })).statusCode).toBe(403);
    expect((await callEn('GET', '/api/systemConfig/getOneConfigInfo?configKey=HOME_BANNER', nobodyToken)).body.data.configValue).toBe('');
  });
});

describe('messages', () => {
  it('delivers a plugin\'s message live to its recipient only, and counts it unread', async () => {
    const bobSocket = await connect(bobToken);
    const nobodySocket = await connect(nobodyToken);
    expect((await callEn('POST', '/api/pager/send', aliceToken, { userIds: [bob.userId], type: 'check', content: 'Term batch 12 awaits your review' })).body.code).toBe(200);
    const pushed = await bobSocket.waitFor('message.created');
    expect(pushed.payload).toMatchObject({ userId: bob.userId, type: 'check', content: 'Term batch 12 awaits your review', isRead: false });
    expect(nobodySocket.received.some((m) => m.type === 'message.created')).toBe(false);
    expect((await callEn('GET', '/api/messageRemind/unreadCount', bobToken)).body.data).toBe(1);
    expect((await callEn('GET', '/api/messageRemind/unreadCount', nobodyToken)).body.data).toBe(0);
    const before = await count('messages');
    const unknown = await callEn('POST', '/api/pager/send', aliceToken, { userIds: [bob.userId, 987654], type: 'check', content: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toContain('987654');
    expect(await count('messages')).toBe(before);
    bobSocket.close();
    nobodySocket.close();
  });

  it('lists, pages, filters, marks read and deletes only the caller\'s own messages', async () => {
    await callEn('POST', '/api/pager/send', aliceToken, { userIds: [bob.userId, nobody.userId], type: 'alert', content: 'Maintenance at 22:00' });
    await callEn('POST', '/api/pager/send', aliceToken, { userIds: [bob.userId], type: 'feedback', content: 'Your feedback was answered' });
    const all = (await callEn('GET', `/api/messageRemind/messages?userId=${bob.userId}`, bobToken)).body.data;
    expect(all.map((m: any) => m.type)).toEqual(['feedback', 'alert', 'check']);
    expect(all[0].typeName).toBe('Feedback');
    expect((await callEn('GET', `/api/messageRemind/messages?userId=${nobody.userId}`, bobToken)).status).toBe(403);
    const page = (await callEn('GET', '/api/messageRemind/messagesByPage?pageNum=2&pageSize=2', bobToken)).body.data;
    expect(page).toMatchObject({ total: 3, pageNum: 2 });
    expect(page.records.map((m: any) => m.type)).toEqual(['check']);
    expect((await callEn('GET', '/api/messageRemind/messagesByPage?type=alert&isRead=false', bobToken)).body.data.total).toBe(1);
    const types = (await callEn('GET', '/api/messageRemind/types', bobToken)).body.data;
    // The kernel's types first, then those the plugins declare (the pager fixture: check, feedback).
    expect(types.map((t: any) => t.type)).toEqual(['proofreading', 'alert', 'cat', 'check', 'feedback']);

    const nobodyMessage = (await callEn('GET', '/api/messageRemind/messages', nobodyToken)).body.data[0];
    // Bob cannot touch nobody's message: it is simply not his.
    expect((await callEn('PUT', '/api/messageRemind/updateMessages', bobToken, { ids: [nobodyMessage.id] })).body.data.updated).toBe(0);
    expect((await callEn('DELETE', `/api/messageRemind/delete?ids=${nobodyMessage.id}`, bobToken)).body.data.deleted).toBe(0);
    expect((await callEn('GET', '/api/messageRemind/messages?isRead=false', nobodyToken)).body.data).toHaveLength(1);

    const marked = await callEn('PUT', '/api/messageRemind/updateMessages', bobToken, { ids: [all[0].id] });
    expect(marked.body.data).toEqual({ updated: 1, unread: 2 });
    expect((await callEn('GET', '/api/messageRemind/messages?isRead=true', bobToken)).body.data.map((m: any) => m.id)).toEqual([all[0].id]);
    expect((await callEn('PUT', '/api/messageRemind/updateMessages', bobToken, { all: true })).body.data).toEqual({ updated: 2, unread: 0 });
    expect((await callEn('DELETE', `/api/messageRemind/delete?ids=${all[1].id},${all[2].id}`, bobToken)).body.data).toEqual({ deleted: 2, unread: 0 });
    expect((await callEn('GET', '/api/messageRemind/messages', bobToken)).body.data).toHaveLength(1);
    expect((await callEn('PUT', '/api/messageRemind/updateMessages', bobToken, {})).status).toBe(400);
  });
});

describe('expired engines', () => {
  it('lists engines expired or expiring within 7 days, soonest first, with whole days left', async () => {
    const now = k.clock.now.getTime();
    const day = 86_400_000;
    // The engines table is the translation area's (core/server/src/translation); the call only reads it.
    const insert = (name: string, at: Date) => k.database.db.insertInto('engines').values({ name, image_name: `${name}-image`, expires_at: at }).execute();
    await insert('a2-soon', new Date(now + 2.5 * day));
    await insert('a2-expired', new Date(now - 3 * day));
    await insert('a2-later', new Date(now + 30 * day));
    const list = ((await k.call('GET', '/api/translServiceInfo/getExpiredEngine', bobToken)).body.data as any[]).filter((e) => e.imagesAlias.startsWith('a2-'));
    expect(list.map((e) => [e.imagesAlias, e.daysBetween])).toEqual([
      ['a2-expired', -3],
      ['a2-soon', 3],
    ]);
  });
});

describe('operation log', () => {
  it('records mutating calls with module, title, operator, outcome and code, failures too, never reads', async () => {
    const before = await count('operation_log');
    await callEn('PUT', '/api/systemConfig/updateConfig', configAdminToken, { configKey: 'FILING_NUMBER', configValue: 'ICP 12345' });
    await callEn('PUT', '/api/systemConfig/updateConfig', nobodyToken, { configKey: 'FILING_NUMBER', configValue: 'x' });
    await callEn('POST', '/api/pager/send', aliceToken, { userIds: [bob.userId], type: 'cat', content: 'Task assigned' });
    await callEn('GET', '/api/systemConfig/getConfig', configAdminToken);
    await callEn('PUT', '/api/messageRemind/updateMessages', bobToken, { all: true });
    // Without a session the body is not read: a username field there does not become the operator.
    await k.call('POST', '/api/pager/send', null, { username: 'impostor', userIds: [], type: 'cat', content: 'x' });
    const session = await k.login('alice', 'Alice-pass-1');
    // The console posts the sign-in form as multipart: the account is named all the same.
    const boundary = '----oplog';
    const form = Object.entries({ username: 'alice', password: 'AAAA', publicKey: 'BBBB' }).map(([n, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`).join('') + `--${boundary}--\r\n`;
    await k.app.inject({ method: 'POST', url: '/api/login', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: form });
    await k.call('POST', '/api/logout?api_key=secret-in-query', session);
    // Records are written after the response: wait for all eight.
    await until(async () => (await count('operation_log')) >= before + 8, { timeout: 5000, what: 'eight operation log records' });
    const rows = await k.database.query<any>(`select module, message, operator_name, method, url, outcome, code from operation_log order by id offset $1`, [before]);
    // Written after each response, so two calls close together may land in either order: compared as a set.
    const key = (r: object) => JSON.stringify(r);
    expect([...rows].sort((a, b) => key(a).localeCompare(key(b)))).toEqual([
      { module: 'systemConfig', message: 'Update system configuration (PUT /api/systemConfig/updateConfig)', operator_name: 'configadmin', method: 'PUT', url: '/api/systemConfig/updateConfig', outcome: 'success', code: 200 },
      { module: 'systemConfig', message: 'Update system configuration (PUT /api/systemConfig/updateConfig)', operator_name: 'nobody', method: 'PUT', url: '/api/systemConfig/updateConfig', outcome: 'failure', code: 403 },
      { module: 'pager', message: 'Send a message (POST /api/pager/send)', operator_name: 'alice', method: 'POST', url: '/api/pager/send', outcome: 'success', code: 200 },
      { module: 'messageRemind', message: 'Mark messages read (PUT /api/messageRemind/updateMessages)', operator_name: 'bob', method: 'PUT', url: '/api/messageRemind/updateMessages', outcome: 'success', code: 200 },
      { module: 'pager', message: 'Send a message (POST /api/pager/send)', operator_name: null, method: 'POST', url: '/api/pager/send', outcome: 'failure', code: 601 },
      { module: 'auth', message: 'Sign in (POST /api/login)', operator_name: 'alice', method: 'POST', url: '/api/login', outcome: 'success', code: 200 },
      { module: 'auth', message: 'Sign in (POST /api/login)', operator_name: 'alice', method: 'POST', url: '/api/login', outcome: 'failure', code: 304 },
      { module: 'auth', message: 'Sign out (POST /api/logout)', operator_name: 'alice', method: 'POST', url: '/api/logout', outcome: 'success', code: 200 },
    ].sort((a, b) => key(a).localeCompare(key(b))));
  });
});
