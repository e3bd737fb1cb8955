import { z } from 'zod';

/**
 * What an API key can reach. A key reaches only the routes that name one of its scopes
 * (`apiKey` on the route); a new key has the default scope, and its owner grants others
 * explicitly. Session, account and administration routes name none, so no key reaches them.
 * The kernel has `translate` (the public translation API); a plugin declares the scopes its
 * routes offer in its manifest (`apiKeyScopes`), and the kernel lists those of enabled plugins.
 */
export const apiKeyScopeSchema = z.string().regex(/^[a-z][a-zA-Z0-9]{1,39}$/, 'an API key scope is a camelCase word');

export type ApiKeyScope = string;

/** The kernel's own scopes, with their names. */
export const KERNEL_API_KEY_SCOPES: readonly { scope: ApiKeyScope; name: { 'zh-CN': string; 'en-US': string } }[] = [
  { scope: 'translate', name: { 'zh-CN': '翻译接口', 'en-US': 'Translation API' } },
];

/** The scopes of a new key: the public translation API. */
export const DEFAULT_API_KEY_SCOPES: readonly ApiKeyScope[] = ['translate'];

/** A well-formed scope name (whether anything declares it is the kernel's catalogue's business). */
export const isApiKeyScope = (value: string): value is ApiKeyScope => apiKeyScopeSchema.safeParse(value).success;
