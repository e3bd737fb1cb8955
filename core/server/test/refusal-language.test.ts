import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createUserWithRole, encryptFor, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// A refusal speaks the request's one language (issue 11): the locale cookie first, then
// Accept-Language, Chinese without either. A sample of each kind (schema validation, a business
// rule, 403, 404, sign-in failure, expired session) is asked for in English and in Chinese, by
// header and by cookie, and each answer is checked to be in that language only and never a raw
// message key such as `validation.userNameLength`.

let k: TestKernel;
let admin: string;
let nobody: string;

beforeAll(async () => {
  k = await startTestKernel({ plugins: ['user'] });
  admin = await k.login('admin', ADMIN_PASSWORD);
  await createUserWithRole(k, 'nobody', 'Nobody-pass-1', 'No grants', []);
  nobody = await k.login('nobody', 'Nobody-pass-1');
});
afterAll(async () => {
  await k?.shutdown();
});

type Lang = 'en-US' | 'zh-CN';

/** The ways a client names its language: the header, the cookie, and the cookie over a header that says the other. */
const WAYS: { name: string; lang: Lang; headers: Record<string, string> }[] = [
  { name: 'Accept-Language: en-US', lang: 'en-US', headers: { 'accept-language': 'en-US,en;q=0.9' } },
  { name: 'Accept-Language: zh-CN', lang: 'zh-CN', headers: { 'accept-language': 'zh-CN,zh;q=0.9' } },
  { name: 'locale=en-US over Accept-Language: zh-CN', lang: 'en-US', headers: { cookie: 'locale=en-US', 'accept-language': 'zh-CN' } },
  { name: 'locale=zh-CN over Accept-Language: en-US', lang: 'zh-CN', headers: { cookie: 'locale=zh-CN', 'accept-language': 'en-US' } },
  { name: 'no language named', lang: 'zh-CN', headers: {} },
];

interface Refusal {
  name: string;
  code: number;
  call(headers: Record<string, string>): Promise<{ code: number; msg: string; localizedMsg?: string }>;
}

let attempt = 0;

async function inject(method: string, url: string, headers: Record<string, string>, token: string | null, payload?: object) {
  // Each call from its own address: failed sign-ins from one address are slowed down after a few.
  const remoteAddress = `10.11.0.${++attempt}`;
  const res = await k.app.inject({ method: method as 'GET', url, remoteAddress, headers: { ...headers, ...(token ? { jwt: token } : {}) }, ...(payload ? { payload } : {}) });
  return res.json() as { code: number; msg: string; localizedMsg?: string };
}

const REFUSALS: Refusal[] = [
  {
    name: 'schema validation (a one-letter user name)',
    code: 400,
    call: (h) => inject('POST', '/api/user/add', h, admin, { username: 'a', password: 'Secret-Passw0rd', confirmPassword: 'Secret-Passw0rd', realName: 'A', departmentIds: [], roleIds: [] }),
  },
  { name: 'schema validation (an id that is not a number)', code: 400, call: (h) => inject('GET', '/api/user/examineUser/abc', h, admin) },
  { name: '403 (a call the caller has no permission for)', code: 403, call: (h) => inject('GET', '/api/user/getAllUserByPage?pageNum=1&pageSize=10', h, nobody) },
  { name: '404 (a user that does not exist)', code: 404, call: (h) => inject('GET', '/api/user/examineUser/999999', h, admin) },
  {
    name: "sign-in failure ('Bad credentials')",
    code: 304,
    async call(h) {
      const key = (await k.call('GET', '/api/user/getOnePublicKey')).body.data as string;
      // An account of its own each time: failures on one account ask for the slider puzzle after a few.
      return inject('POST', '/api/login', h, null, { username: `ghost-${attempt}`, password: encryptFor(key, 'wrong-Passw0rd'), publicKey: key, symbol: '' });
    },
  },
  { name: 'expired session (an unknown token)', code: 601, call: (h) => inject('GET', '/api/user/getUserInfoByToken', h, 'no-such-session') },
];

const HAN = /\p{Script=Han}/u;
/** Codes a Chinese message may carry: permission keys (`user:list`), paths, field names before a colon are not words to translate. */
const CODES = /[A-Za-z][\w.-]*:[\w.-]*|\/[\w/.-]+|\b[A-Za-z][a-z]*[A-Z]\w*\b/g;
const RAW_KEY = /\b(validation|errors?|http)\.[A-Za-z]+/;

function problems(msg: string, lang: Lang): string[] {
  const out: string[] = [];
  if (RAW_KEY.test(msg)) out.push('a raw message key');
  if (lang === 'en-US') {
    if (HAN.test(msg)) out.push('Chinese in an English answer');
    if (!/[A-Za-z]{3}/.test(msg)) out.push('no English words');
  } else {
    if (!HAN.test(msg)) out.push('no Chinese');
    const words = msg.replace(CODES, ' ').match(/[A-Za-z]{2,}/g) ?? [];
    if (words.length) out.push(`English words in a Chinese answer: ${words.join(' ')}`);
  }
  return out;
}

describe('refusals in the request language', () => {
  for (const refusal of REFUSALS) {
    it(`answers ${refusal.name} in English or Chinese only, as the request asks`, async () => {
      const seen: string[] = [];
      const bad: string[] = [];
      for (const way of WAYS) {
        const body = await refusal.call(way.headers);
        expect(body.code, `${way.name}: ${body.msg}`).toBe(refusal.code);
        // A protocol text stays English in msg; the reader's language is then in localizedMsg.
        const text = body.localizedMsg ?? body.msg;
        seen.push(text);
        for (const p of problems(text, way.lang)) bad.push(`${way.name}: ${p}: ${text}`);
      }
      expect(bad).toEqual([]);
      // The same refusal, two wordings: what the header asked for, and what the cookie asked for, agree.
      expect(seen[0]).toBe(seen[2]);
      expect(seen[1]).toBe(seen[3]);
      expect(seen[1]).toBe(seen[4]);
      expect(seen[0]).not.toBe(seen[1]);
    });
  }

  it("keeps spec 01's exact 'Bad credentials' in msg in every language (clients match it), the reader's language beside it", async () => {
    expect(await REFUSALS[4]!.call({ 'accept-language': 'en-US' })).toEqual({ code: 304, msg: 'Bad credentials', data: null });
    expect(await REFUSALS[4]!.call({ 'accept-language': 'zh-CN' })).toEqual({ code: 304, msg: 'Bad credentials', data: null, localizedMsg: '用户名或密码错误' });
    expect(await REFUSALS[4]!.call({ cookie: 'locale=zh-CN' })).toMatchObject({ msg: 'Bad credentials', localizedMsg: '用户名或密码错误' });
  });

  it('shows the session-expired text the console shows, in the request language', async () => {
    expect((await REFUSALS[5]!.call({ cookie: 'locale=en-US' })).msg).toBe('Login expired, please sign in again');
    expect((await REFUSALS[5]!.call({ cookie: 'locale=zh-CN' })).msg).toBe('登录已过期，请重新登录');
  });
});
