import { say, type Caller, type RouteDefinition } from '@linguaport/sdk/server';

type Headers = Record<string, string | string[] | undefined>;

/**
 * What a caller's kind of sign-in reaches, before any permission check. An API key reaches only
 * routes that name one of its scopes (never session, account or administration routes); a
 * `'member'` route (own account settings, the user directory) needs a full console session of a
 * real account, so neither the guest, a quick-access page nor an API key reaches it.
 * The reason to refuse, or null.
 */
export function reachRefusal(caller: Caller, def: Pick<RouteDefinition, 'access' | 'apiKey'>, headers: Headers): string | null {
  if (caller.via === 'api-key') {
    if (!def.apiKey) {
      return say(headers, 'API 密钥只能调用公开的翻译接口（及其所有者授予的范围）；此调用需要控制台会话', 'An API key reaches only the public translation API (and the scopes its owner granted); this call needs a console session');
    }
    if (!caller.apiKeyScopes?.has(def.apiKey)) {
      return say(headers, `此 API 密钥没有范围 ${def.apiKey}；可由其所有者授予`, `This API key lacks the scope ${def.apiKey}; its owner can grant it`);
    }
  }
  if (def.access === 'member' && caller.via !== 'session') {
    return say(headers, '此调用需要本人账户的完整登录（访客、快捷访问链接和 API 密钥均不可）', 'This call needs a full sign-in to your own account (not a guest, a quick-access link or an API key)');
  }
  return null;
}
