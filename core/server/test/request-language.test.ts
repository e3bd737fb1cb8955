import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, encryptFor, startKernel, type TestKernel } from './support/kernel.js';

// The kernel's refusals follow the request's locale: the `locale` cookie first, then
// Accept-Language, else Chinese (the console's default). Each call below is refused by a
// message that used to be English only.

const CJK = /[\u3400-\u9fff]/;

let k: TestKernel;
let token: string;

beforeAll(async () => {
  k = await startKernel({ logLevel: 'fatal' });
  token = await k.login('admin', ADMIN_PASSWORD);
}, 120_000);
afterAll(async () => {
  await k?.shutdown();
});

interface Refusal {
  name: string;
  url: string;
  signedIn: boolean;
  zh: string;
  en: string;
}

const refusals: Refusal[] = [
  { name: 'guest sign-in switched off', url: '/api/user/getGuestUser', signedIn: false, zh: '访客登录已关闭', en: 'Guest sign-in is switched off' },
  { name: 'a forged quick-access link', url: '/api/quickAccess/login?token=abc.def', signedIn: false, zh: '该快捷访问链接无效', en: 'This quick-access link is not valid' },
  { name: 'an unknown configuration key', url: '/api/systemConfig/getOneConfigInfo?configKey=NO_SUCH_KEY', signedIn: true, zh: '配置键 NO_SUCH_KEY 不存在', en: 'No configuration key NO_SUCH_KEY' },
  { name: 'another user\'s messages', url: '/api/messageRemind/messages?userId=999', signedIn: true, zh: '无权限：您只能读取自己的消息', en: 'Permission denied: you can only read your own messages' },
  { name: 'an unknown plug-in', url: '/api/plugIn/details/no-such-plugin', signedIn: true, zh: '插件 no-such-plugin 不存在', en: 'No plug-in no-such-plugin' },
];

async function ask(r: Refusal, headers: Record<string, string>) {
  const res = await k.app.inject({ method: 'GET', url: r.url, headers: { ...(r.signedIn ? { jwt: token } : {}), ...headers } });
  // Some refusals travel in a 200 with the envelope's code (a sign-in that failed); none is a 5xx.
  expect(res.statusCode).toBeLessThan(500);
  const body = res.json() as { code: number; msg: string };
  expect(body.code).not.toBe(200);
  return body.msg;
}

describe('kernel refusals in the request\'s language', () => {
  it.each(refusals)('$name: Chinese with no header, English for Accept-Language or the cookie, the cookie first', async (r) => {
    expect(await ask(r, {})).toBe(r.zh);
    expect(await ask(r, { 'accept-language': 'en-US,en;q=0.9' })).toBe(r.en);
    expect(await ask(r, { cookie: 'locale=en-US' })).toBe(r.en);
    expect(await ask(r, { 'accept-language': 'zh-CN,zh;q=0.9' })).toBe(r.zh);
    // The console's choice (the cookie) wins over the browser's language.
    expect(await ask(r, { cookie: 'locale=zh-CN', 'accept-language': 'en-US,en;q=0.9' })).toBe(r.zh);
    expect(await ask(r, { cookie: 'locale=en-US', 'accept-language': 'zh-CN' })).toBe(r.en);
  });

  it('says why a new password is refused in the request\'s language (the password policy)', async () => {
    const change = async (newPassword: string, headers: Record<string, string>) => {
      const key = ((await k.app.inject({ method: 'GET', url: '/api/user/getOnePublicKey' })).json() as { data: string }).data;
      const query = { username: 'admin', publicKey: key, oldPassword: encryptFor(key, ADMIN_PASSWORD), newPassword: encryptFor(key, newPassword) };
      const res = await k.app.inject({ method: 'GET', url: '/api/user/updatePasswordForced', query, headers });
      expect(res.statusCode).toBe(400);
      return (res.json() as { msg: string }).msg;
    };
    expect(await change('short1', {})).toBe('密码长度必须为 8 到 64 个字符');
    expect(await change('short1', { 'accept-language': 'en-US,en;q=0.9' })).toBe('The password must be 8 to 64 characters long');
    expect(await change('onlyletters', { cookie: 'locale=en-US' })).toBe('The password must contain at least one letter and one digit');
    expect(await change('onlyletters', {})).toMatch(CJK);
    expect(await change(ADMIN_PASSWORD, { cookie: 'locale=en-US' })).toBe('The new password must differ from the old one');
    expect(await change(ADMIN_PASSWORD, {})).toBe('新密码不能与旧密码相同');
    // Still the same password: every refusal changed nothing.
    expect(await k.login('admin', ADMIN_PASSWORD)).toBeTruthy();
  });
});
