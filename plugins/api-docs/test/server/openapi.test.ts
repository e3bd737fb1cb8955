import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// The document generated from the real kernel with a few product plugins loaded.

// fastify's `:id` is OpenAPI's `{id}`.
const openApiPath = (url: string) => url.replace(/^\/api/, '').replace(/:([A-Za-z0-9_]+)/g, '{$1}');
let kernel: TestKernel;
let doc: any;

beforeAll(async () => {
  kernel = await startTestKernel({ plugins: ['api-docs', 'domain', 'feedback', 'dictionary'] });
  const admin = await kernel.login('admin', ADMIN_PASSWORD);
  const res = await kernel.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { jwt: admin } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('application/json');
  doc = res.json();
}, 120_000);

afterAll(async () => {
  await kernel?.shutdown();
});

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document with the X-Api-Key scheme', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: '/api' }]);
    expect(doc.components.securitySchemes.ApiKey).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Api-Key' }));
  });

  it('describes every registered route, kernel and plugins alike', () => {
    const missing = kernel.routes.filter((r) => !doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()]).map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
    expect(kernel.routes.length).toBeGreaterThan(40);
  });

  it('turns path and query schemas into parameters', () => {
    const del = doc.paths['/domain/delete/{code}'].delete;
    expect(del.parameters).toContainEqual(expect.objectContaining({ name: 'code', in: 'path', required: true }));
    expect(del['x-permission']).toEqual(['domain:delete']);
    const page = doc.paths['/dictType/page'].get;
    const names = page.parameters.map((p: { name: string }) => p.name);
    expect(names).toEqual(expect.arrayContaining(['page', 'pageSize', 'name', 'code', 'enabled']));
    expect(page.parameters.find((p: { name: string }) => p.name === 'enabled').schema.enum).toEqual(['true', 'false']);
  });

  it('describes JSON bodies with their required fields, and file uploads as multipart with a binary part', () => {
    const add = doc.paths['/dictData/add'].post.requestBody.content['application/json'].schema;
    expect(add.required).toEqual(expect.arrayContaining(['typeId', 'name', 'code', 'value', 'sort']));
    const feedback = doc.paths['/feedback/add'].post.requestBody.content['multipart/form-data'].schema;
    expect(feedback.properties.screenshot.properties.data).toEqual(expect.objectContaining({ type: 'string', format: 'binary' }));
    expect(feedback.properties.type.enum).toEqual(['system', 'internal']);
  });

  it('marks public calls as needing no credentials, calls of an API-key scope as needing a key or a session, and others a session', () => {
    expect(doc.paths['/user/getOnePublicKey'].get.security).toEqual([]);
    expect(doc.paths['/openapi.json'].get.security).toEqual([{ ApiKey: [] }, { Session: [] }]);
    expect(doc.paths['/openapi.json'].get['x-api-key-scope']).toBe('translate');
    expect(doc.paths['/domain/list'].get.security).toEqual([{ Session: [] }]);
  });

  it('is served to a program that sends an API key in X-Api-Key, as documented', async () => {
    const admin = await kernel.login('admin', ADMIN_PASSWORD);
    const { id: userId } = await kernel.database.db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow();
    const key = (await kernel.call('GET', `/api/user/updateApiKey/${userId}`, admin)).body.data as string;
    expect(key).toMatch(/^[^*]{16,}$/);
    const res = await kernel.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { 'x-api-key': key } });
    expect(res.statusCode).toBe(200);
    expect(res.json().openapi).toBe('3.1.0');
  });

  it('is refused without credentials', async () => {
    const res = await kernel.call('GET', '/api/openapi.json', null);
    expect(res.body.code).toBe(601);
  });
});
