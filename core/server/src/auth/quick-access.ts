import type { LocalizedText } from '@linguaport/sdk/server';
import type { Secret } from './secret.js';

/**
 * Quick-access links: `/quickAccess?token=...&redirect=<path>` where the token is
 * base64url(JSON {u, p, e}) + '.' + HMAC over it with the server secret. It signs a user into one
 * page until it expires; it is not single-use (a link meant for a wall screen must survive reloads).
 */

interface Payload {
  u: number;
  p: string;
  e: number;
}

export function createQuickAccessLink(secret: Secret, input: { userId: number; path: string; expiresAt: Date }): { token: string; url: string } {
  const body = Buffer.from(JSON.stringify({ u: input.userId, p: input.path, e: input.expiresAt.getTime() } satisfies Payload)).toString('base64url');
  const token = `${body}.${secret.sign(`qa:${body}`)}`;
  return { token, url: `/quickAccess?token=${encodeURIComponent(token)}&redirect=${encodeURIComponent(input.path)}` };
}

/** A quick-access page: a console path, never empty (an empty scope would be no scope at all). */
export const QUICK_ACCESS_PATH = /^\/[A-Za-z0-9/_-]*$/;

export function isQuickAccessPath(path: unknown): path is string {
  return typeof path === 'string' && path.length > 1 && path.length <= 500 && QUICK_ACCESS_PATH.test(path);
}

export function openQuickAccessToken(secret: Secret, token: string, now: Date): { ok: true; userId: number; path: string } | { ok: false; reason: LocalizedText } {
  const [body, signature] = token.split('.');
  if (!body || !signature || !secret.verify(`qa:${body}`, signature)) return { ok: false, reason: { 'zh-CN': '该快捷访问链接无效', 'en-US': 'This quick-access link is not valid' } };
  let payload: Payload;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
  } catch {
    return { ok: false, reason: { 'zh-CN': '该快捷访问链接无效', 'en-US': 'This quick-access link is not valid' } };
  }
  // Signed or not, a token must name one user and one page: a missing or empty page never means every page.
  if (typeof payload !== 'object' || payload === null || !Number.isSafeInteger(payload.u) || payload.u < 1 || !isQuickAccessPath(payload.p)) {
    return { ok: false, reason: { 'zh-CN': '该快捷访问链接无效', 'en-US': 'This quick-access link is not valid' } };
  }
  if (typeof payload.e !== 'number' || payload.e <= now.getTime()) return { ok: false, reason: { 'zh-CN': '该快捷访问链接已过期', 'en-US': 'This quick-access link has expired' } };
  return { ok: true, userId: payload.u, path: payload.p };
}
