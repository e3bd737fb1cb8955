/**
 * What an API key can reach. A key reaches only the routes that name one of its scopes
 * (`apiKey` on the route); a new key has the default scope, and its owner grants others
 * explicitly. Session, account and administration routes name none, so no key reaches them.
 */
export const API_KEY_SCOPES = ['translate', 'textTools', 'history'] as const;

export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** The scopes of a new key: the public translation API. */
export const DEFAULT_API_KEY_SCOPES: readonly ApiKeyScope[] = ['translate'];

export const isApiKeyScope = (value: string): value is ApiKeyScope => (API_KEY_SCOPES as readonly string[]).includes(value);
