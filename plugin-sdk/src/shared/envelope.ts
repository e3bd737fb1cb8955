/**
 * The response envelope of every API call: `{ code, msg, data }` (spec 01 section 8).
 * The numeric codes are the public contract shared by the server and the console client.
 */
export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
  /**
   * The message in the request's language when `msg` is a protocol text that clients match on
   * (spec 01 section 8's 'Bad credentials' and 'Full authentication ...', English in every language).
   */
  localizedMsg?: string;
}

export const Codes = {
  /** Success. */
  OK: 200,
  /** Authentication failure; msg tells which ('Bad credentials', 'Full authentication ...'). */
  AUTH_FAILED: 304,
  /** Bad input: the request failed its schema or a business rule. HTTP 400. */
  BAD_REQUEST: 400,
  /** The caller lacks the permission the call needs. HTTP 403. */
  FORBIDDEN: 403,
  /** The resource does not exist (or its feature area is disabled). HTTP 404. */
  NOT_FOUND: 404,
  /** The entity already exists or is in use. HTTP 409. */
  CONFLICT: 409,
  /** Too many attempts or over a limit. HTTP 429. */
  TOO_MANY: 429,
  /** Unexpected server failure. HTTP 500. */
  INTERNAL: 500,
  /** A translation or other service is interrupted. HTTP 503. */
  SERVICE_INTERRUPTED: 503,
  /** Session invalid: expired, revoked or unknown token. */
  SESSION_INVALID: 601,
  /** Returned silently for the caller: a queue is full. */
  QUEUE_FULL: 3027,
  /** Returned silently for the caller: the file is not found on the server. */
  FILE_NOT_FOUND: 2067,
  /** Sign-in needs a further step (password change or department pick); msg says which. */
  LOGIN_NEEDS_ACTION: 4014,
  /** SSO not finished yet: the console keeps polling silently. */
  SSO_PENDING: 4015,
} as const;

export type Code = (typeof Codes)[keyof typeof Codes];

/** The exact messages of spec 01 section 8 that the client matches on (as an English request gets them). */
export const AuthMessages = {
  BAD_CREDENTIALS: 'Bad credentials',
  FULL_AUTH_REQUIRED: 'Full authentication is required to access this resource',
} as const;

/**
 * The same messages in Chinese. The server never puts these in `msg` (clients match the English texts,
 * whatever the language); a Chinese request gets them in `localizedMsg`.
 */
export const AuthMessagesZh: Record<keyof typeof AuthMessages, string> = {
  BAD_CREDENTIALS: '用户名或密码错误',
  FULL_AUTH_REQUIRED: '需要完整的身份认证才能访问此资源',
};

/** Whether a message is a protocol text of spec 01 section 8: then `msg` stays English in every language. */
export function isProtocolMessage(msg: string): boolean {
  return (Object.values(AuthMessages) as string[]).includes(msg);
}

/** Whether a 304's msg is this one of spec 01 section 8 (also in Chinese, as servers before sent it). */
export function isAuthMessage(msg: string | null | undefined, which: keyof typeof AuthMessages): boolean {
  return msg === AuthMessages[which] || msg === AuthMessagesZh[which];
}

/** HTTP status that goes with an envelope code; codes outside this map travel with HTTP 200. */
export function httpStatusFor(code: number): number {
  switch (code) {
    case Codes.BAD_REQUEST: return 400;
    case Codes.FORBIDDEN: return 403;
    case Codes.NOT_FOUND: return 404;
    case Codes.CONFLICT: return 409;
    case Codes.TOO_MANY: return 429;
    case Codes.INTERNAL: return 500;
    case Codes.SERVICE_INTERRUPTED: return 503;
    default: return 200;
  }
}

export function ok<T>(data: T, msg = 'success'): Envelope<T> {
  return { code: Codes.OK, msg, data };
}
