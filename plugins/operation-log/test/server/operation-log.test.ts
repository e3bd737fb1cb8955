import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// The operation-log plugin loaded by the real kernel; the kernel writes the log, the plugin reads it.

let kernel: TestKernel;
let admin: string;
let plain: string;
const db = () => kernel.database.db;

const entry = (module: string, operator: string, at: string, outcome: 'success' | 'failure' = 'success') => ({
  module, message: `${module} thing`, operator_id: null, operator_name: operator, method: 'POST', url: `/api/${module}/x`, outcome, code: outcome === 'success' ? 200 : 400, ip: '127.0.0.1', created_at: new Date(at),
});

beforeAll(async () => {
  kernel = await startTestKernel({ plugins: ['operation-log'] });
  admin = await kernel.login('admin', ADMIN_PASSWORD);
  await createUserWithRole(kernel, 'plain', 'Plain-Passw0rd', 'plain-role', []);
  plain = await kernel.login('plain', 'Plain-Passw0rd');
  await db().insertInto('operation_log').values([
    entry('user', 'alice', '2026-01-01T10:00:00Z'),
    entry('user', 'bob', '2026-01-02T10:00:00Z', 'failure'),
    entry('role', 'alice', '2026-01-03T10:00:00Z'),
    entry('term', 'carol', '2026-01-04T10:00:00Z'),
  ]).execute();
}, 120_000);

afterAll(async () => {
  await kernel?.shutdown();
});

const list = async (qs: string) => (await kernel.call('GET', `/api/operationLog/list?${qs}`, admin)).body.data;

describe('operation log', () => {
  it('filters by module, operator, outcome and time range, newest first', async () => {
    expect((await list('module=user')).records.map((r: { operatorName: string }) => r.operatorName)).toEqual(['bob', 'alice']);
    expect((await list('operator=ali&pageSize=50')).records.map((r: { module: string }) => r.module).filter((m: string) => m !== 'auth')).toEqual(['role', 'user']);
    expect((await list('outcome=failure')).records.map((r: { operatorName: string }) => r.operatorName)).toEqual(['bob']);
    const range = await list('startTime=2026-01-02T00:00:00Z&endTime=2026-01-03T23:00:00Z');
    expect(range.records.map((r: { module: string }) => r.module)).toEqual(['role', 'user']);
    expect(range.total).toBe(2);
  });

  it('pages on the server', async () => {
    const first = await list('startTime=2026-01-01T00:00:00Z&endTime=2026-01-05T00:00:00Z&pageSize=3&pageNum=1');
    const second = await list('startTime=2026-01-01T00:00:00Z&endTime=2026-01-05T00:00:00Z&pageSize=3&pageNum=2');
    expect(first.total).toBe(4);
    expect(first.records).toHaveLength(3);
    expect(second.records.map((r: { operatorName: string }) => r.operatorName)).toEqual(['alice']);
  });

  it('refuses a range whose end is before its start, and a malformed time', async () => {
    expect((await kernel.call('GET', '/api/operationLog/list?startTime=2026-01-03T00:00:00Z&endTime=2026-01-01T00:00:00Z', admin)).body.msg).toMatch(/^endTime: /);
    expect((await kernel.call('GET', '/api/operationLog/list?startTime=yesterday', admin)).status).toBe(400);
  });

  it('lists the modules present', async () => {
    const modules = (await kernel.call('GET', '/api/operationLog/modules', admin)).body.data as string[];
    expect(modules).toEqual(expect.arrayContaining(['role', 'term', 'user']));
  });

  it('exports the filtered rows as XLSX with a header row', async () => {
    const res = await kernel.app.inject({ method: 'GET', url: '/api/operationLog/export?module=user', headers: { jwt: admin, 'accept-language': 'en-US' } });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = XLSX.read(res.rawPayload, { type: 'buffer' });
    const rows = XLSX.utils.sheet_to_json<string[]>(book.Sheets[book.SheetNames[0]!]!, { header: 1 });
    expect(rows[0]).toEqual(['Time', 'Module', 'Operation', 'Operator', 'Outcome', 'Code', 'Method', 'URL', 'IP']);
    expect(rows.slice(1).map((r) => r[3])).toEqual(['bob', 'alice']);
  });

  it('shows a call that changed data, recorded by the kernel with its operator', async () => {
    const before = Number((await list('')).total);
    await kernel.call('PUT', '/api/user/locale', admin, { locale: 'en-US' });
    const after = await list('operator=admin');
    expect(Number((await list('')).total)).toBe(before + 1);
    expect(after.records[0]).toMatchObject({ operatorName: 'admin', method: 'PUT', outcome: 'success' });
  });

  it('names each module in the reader\'s language: a plugin by its menu, the kernel\'s own areas by theirs, else as stored', async () => {
    await db().insertInto('operation_log').values([entry('operation-log', 'dave', '2026-01-05T10:00:00Z'), entry('auth', 'dave', '2026-01-05T11:00:00Z'), entry('no-such-area', 'dave', '2026-01-05T12:00:00Z')]).execute();
    const names = async (headers: Record<string, string>) => {
      const res = await kernel.app.inject({ method: 'GET', url: '/api/operationLog/list?operator=dave', headers: { jwt: admin, ...headers } });
      return (res.json().data.records as { module: string; moduleName: string }[]).map((r) => [r.module, r.moduleName]);
    };
    expect(await names({})).toEqual([['no-such-area', 'no-such-area'], ['auth', '登录认证'], ['operation-log', '操作日志']]);
    expect(await names({ 'accept-language': 'en-US,en;q=0.9' })).toEqual([['no-such-area', 'no-such-area'], ['auth', 'Sign-in'], ['operation-log', 'Operation log']]);
    expect(await names({ cookie: 'locale=en-US', 'accept-language': 'zh-CN' })).toEqual([['no-such-area', 'no-such-area'], ['auth', 'Sign-in'], ['operation-log', 'Operation log']]);
    // The export's module column reads the same names.
    const res = await kernel.app.inject({ method: 'GET', url: '/api/operationLog/export?operator=dave', headers: { jwt: admin } });
    const rows = XLSX.utils.sheet_to_json<string[]>(XLSX.read(res.rawPayload, { type: 'buffer' }).Sheets['operation-log']!, { header: 1 });
    expect(rows.slice(1).map((r) => r[1])).toEqual(['no-such-area', '登录认证', '操作日志']);
    // The module filter's choices: the ids it filters by, named in the reader's language.
    const choices = async (headers: Record<string, string>) => (await kernel.app.inject({ method: 'GET', url: '/api/operationLog/moduleNames', headers: { jwt: admin, ...headers } })).json().data as { module: string; name: string }[];
    expect(await choices({})).toEqual(expect.arrayContaining([{ module: 'auth', name: '登录认证' }, { module: 'operation-log', name: '操作日志' }, { module: 'user', name: '用户账户' }]));
    expect(await choices({ cookie: 'locale=en-US' })).toEqual(expect.arrayContaining([{ module: 'auth', name: 'Sign-in' }, { module: 'operation-log', name: 'Operation log' }, { module: 'no-such-area', name: 'no-such-area' }]));
  });

  it('shows each line in the reader\'s language, lines from before titles as written, and a kept parameter filled in', async () => {
    await kernel.call('PUT', '/api/user/locale', admin, { locale: 'zh-CN' });
    const line = async (headers: Record<string, string>, qs = 'operator=admin') =>
      ((await kernel.app.inject({ method: 'GET', url: `/api/operationLog/list?${qs}`, headers: { jwt: admin, ...headers } })).json().data.records[0] as { message: string }).message;
    expect(await line({ 'accept-language': 'en-US' })).toBe('Set own interface language');
    expect(await line({ 'accept-language': 'zh-CN' })).toBe('设置界面语言');
    expect(await line({ cookie: 'locale=en-US', 'accept-language': 'zh-CN' })).toBe('Set own interface language');
    // A row written before lines kept their operation: its English line, as stored, in either language.
    expect(await line({}, 'operator=carol')).toBe('term thing');
    // A line that keeps a parameter (as the kernel's 'another user's password changed' line does).
    await db().insertInto('operation_titles').values({ route: 'test.greeting', name_zh: '问候 {name}', name_en: 'Greet {name}' }).execute();
    await db().insertInto('operation_log').values({ ...entry('user', 'erin', '2026-01-06T10:00:00Z'), route: 'test.greeting', params: JSON.stringify({ name: 'Zoë' }) }).execute();
    expect(await line({ 'accept-language': 'en-US' }, 'operator=erin')).toBe('Greet Zoë');
    expect(await line({}, 'operator=erin')).toBe('问候 Zoë');
    // The export reads the same lines.
    const res = await kernel.app.inject({ method: 'GET', url: '/api/operationLog/export?operator=erin', headers: { jwt: admin } });
    const rows = XLSX.utils.sheet_to_json<string[]>(XLSX.read(res.rawPayload, { type: 'buffer' }).Sheets['operation-log']!, { header: 1 });
    expect(rows.slice(1).map((r) => [r[2], r[4]])).toEqual([['问候 Zoë', '成功']]);
  });

  it('answers 403 to the list and the export without the keys', async () => {
    expect((await kernel.call('GET', '/api/operationLog/list', plain)).status).toBe(403);
    expect((await kernel.call('GET', '/api/operationLog/export', plain)).status).toBe(403);
    expect((await kernel.call('GET', '/api/operationLog/moduleNames', plain)).status).toBe(403);
  });
});
