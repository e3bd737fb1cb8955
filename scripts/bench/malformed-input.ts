// Figure: malformed requests against every registered route of the whole deployment (kernel and every
// plugin of registry.json), anonymous and as the administrator, so that bad input reaches each route's
// validation and handler. Prints the requests sent and the answers by status class; every 5xx is a
// defect and is listed. Target: 0 answers of 5xx.
import { join } from 'node:path';
import { ADMIN_PASSWORD, encryptFor, startKernel } from '../../core/server/test/support/kernel.js';

const REGISTRY = join(import.meta.dirname, '..', '..', 'registry.json');
const kernel = await startKernel({ registryFile: REGISTRY, logLevel: 'error' });

// Values an attacker or a broken client sends where an id, a number or a string is expected.
const BAD_IDS = ['3000000000', '9007199254740993', '-1', '0', '1.5', '1e309', 'a%00b', '%00', '9'.repeat(40), 'null', '%E0%A4%A'];
const BAD_VALUES: unknown[] = [3000000000, 2 ** 53 + 2, -1, 1.5, 'a\u0000b', '\u0000', 'x'.repeat(70_000), [], {}, [1, 'a'], { $gt: '' }, null, true, '9'.repeat(40)];
const FIELD_NAMES = ['id', 'ids', 'userId', 'roleId', 'roleIds', 'departmentId', 'pageNum', 'pageSize', 'username', 'password', 'name', 'q', 'source', 'target', 'text', 'status', 'type', 'key', 'value', 'enabled', 'sort', 'sortOrder', 'startTime', 'endTime'];

// Each sign-in comes from its own loopback address: one address may take only so many one-time keys a minute.
let signIns = 0;
async function signIn(): Promise<string> {
  const remoteAddress = `127.0.${1 + Math.floor(signIns / 250)}.${1 + (signIns % 250)}`;
  signIns++;
  const key = (await kernel.app.inject({ method: 'GET', url: '/api/user/getOnePublicKey', remoteAddress })).json().data as string;
  const res = await kernel.app.inject({ method: 'POST', url: '/api/login', remoteAddress, payload: { username: 'admin', password: encryptFor(key, ADMIN_PASSWORD), publicKey: key, symbol: '' } });
  return res.json().data.token as string;
}
let token = await signIn();
const counts = { sent: 0, defects: 0, '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 } as Record<string, number>;
const failures: string[] = [];

async function send(method: string, url: string, opts: { body?: string; contentType?: string; auth: boolean }) {
  const headers: Record<string, string> = {};
  if (opts.auth) headers.jwt = token;
  if (opts.contentType) headers['content-type'] = opts.contentType;
  const res = await kernel.app.inject({ method: method as 'GET', url, headers, ...(opts.body === undefined ? {} : { payload: opts.body }) });
  counts.sent++;
  const cls = `${String(res.statusCode)[0]}xx`;
  counts[cls] = (counts[cls] ?? 0) + 1;
  let code: unknown;
  try {
    code = res.json().code;
  } catch {
    // Not an envelope: judged by its HTTP status alone.
  }
  // An envelope saying 500 inside an HTTP 200 is the same defect as an HTTP 500.
  if (res.statusCode >= 500 || code === 500) {
    counts.defects++;
    failures.push(`${res.statusCode} ${method} ${url.slice(0, 100)} ${opts.contentType ?? ''} ${JSON.stringify((opts.body ?? '').slice(0, 60))} -> ${res.body.slice(0, 120)}`);
  }
  // A call that ended the administrator's session (sign-out, password change) gets a fresh one.
  if (opts.auth && res.statusCode === 200) {
    const probe = await kernel.app.inject({ method: 'GET', url: '/api/user/getInfo', headers: { jwt: token } });
    if (probe.json().code !== 200) token = await signIn();
  }
}

const concrete = (url: string, value: string) => url.replace(/:[A-Za-z0-9_]+/g, value).replace(/\*$/, value);
const skip = (url: string) => /logout|restart|shutdown/i.test(url);
const started = performance.now();
try {
  for (const route of kernel.routes) {
    if (skip(route.url)) continue;
    const hasParams = /:[A-Za-z0-9_]+|\*$/.test(route.url);
    for (const auth of [false, true]) {
      for (const id of hasParams ? BAD_IDS : ['1']) {
        const url = concrete(route.url, id);
        await send(route.method, url, { auth });
        await send(route.method, `${url}?${FIELD_NAMES.slice(0, 8).map((f) => `${f}=${BAD_IDS[(f.length + id.length) % BAD_IDS.length]}`).join('&')}`, { auth });
      }
      if (route.method === 'GET' || route.method === 'OPTIONS') continue;
      const url = concrete(route.url, '1');
      await send(route.method, url, { auth, body: '{"id": 1,', contentType: 'application/json' });
      await send(route.method, url, { auth, body: 'a=1', contentType: 'multipart/form-data' });
      await send(route.method, url, { auth, body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n\u0000\r\n', contentType: 'multipart/form-data; boundary=x' });
      await send(route.method, url, { auth, body: '\u0000', contentType: 'text/plain' });
      for (const value of BAD_VALUES) {
        const body = Object.fromEntries(FIELD_NAMES.map((f) => [f, value]));
        await send(route.method, url, { auth, body: JSON.stringify(body), contentType: 'application/json' });
      }
      await send(route.method, url, { auth, body: JSON.stringify(BAD_VALUES), contentType: 'application/json' });
    }
  }
} finally {
  await kernel.shutdown();
}
const seconds = (performance.now() - started) / 1000;
console.log(`routes: ${kernel.routes.length}; requests sent: ${counts.sent} in ${seconds.toFixed(1)} s`);
console.log(`answers: 2xx ${counts['2xx']}, 3xx ${counts['3xx'] ?? 0}, 4xx ${counts['4xx']}, 5xx ${counts['5xx']}; server errors (HTTP 5xx or envelope code 500): ${counts.defects} (target 0)`);
for (const line of failures.slice(0, 40)) console.log(`  ${line}`);
if (failures.length > 40) console.log(`  ... and ${failures.length - 40} more`);
