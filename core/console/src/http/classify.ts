import { Codes, isAuthMessage } from '../../../../plugin-sdk/src/shared/envelope.js';

/**
 * The error catalogue of spec 01 section 8 as data: given what came back, decide how the call
 * settles, what the user is told and whether the session ends. The client carries it out.
 */
export interface ResponseInput {
  status: number;
  body: unknown;
  /** Current page path: a session expiry on /quickAccess does not reload. */
  pathname: string;
  /** The caller handles errors itself: no toast (session expiry still ends the session). */
  silent?: boolean;
}

export interface Toast {
  intent: 'danger' | 'warning';
  /** An i18n key in the `core` namespace, or literal server text. */
  key?: string;
  text?: string;
}

export type Settle =
  /** Success: the caller gets `data`. */
  | 'data'
  /** No envelope (a file, plain text): the caller gets the body as it is. */
  | 'body'
  /** A code the caller handles (4014, 3027, 4015, 2067): the caller gets the whole envelope. */
  | 'envelope'
  | 'reject';

export interface Classified {
  settle: Settle;
  toast: Toast | null;
  /** Code 601: clear token, user state and session storage. */
  endSession: boolean;
  reload: boolean;
  code: number;
  msg: string;
}

const RETURNED_SILENTLY = new Set<number>([Codes.QUEUE_FULL, Codes.SSO_PENDING, Codes.FILE_NOT_FOUND]);

function envelopeOf(body: unknown): { code: number; msg: string } | null {
  if (typeof body !== 'object' || body === null || !('code' in body)) return null;
  const code = Number((body as { code: unknown }).code);
  if (!Number.isFinite(code)) return null;
  const msg = (body as { msg?: unknown }).msg;
  return { code, msg: typeof msg === 'string' ? msg : '' };
}

function textOr(msg: string): Toast {
  return msg ? { intent: 'danger', text: msg } : { intent: 'danger', key: 'http.error' };
}

export function classifyResponse(input: ResponseInput): Classified {
  const env = envelopeOf(input.body);
  const quiet = (t: Toast | null) => (input.silent ? null : t);
  const base = { endSession: false, reload: false, code: env?.code ?? input.status, msg: env?.msg ?? '' };

  if (input.status !== 200 && input.status !== 201) {
    return { ...base, settle: 'reject', toast: quiet(textOr(env?.msg ?? '')) };
  }
  if (!env) return { ...base, settle: 'body', toast: null };

  switch (env.code) {
    case Codes.OK:
      return { ...base, settle: 'data', toast: null };
    case Codes.AUTH_FAILED:
      if (isAuthMessage(env.msg, 'BAD_CREDENTIALS')) return { ...base, settle: 'reject', toast: quiet({ intent: 'danger', key: 'http.badCredentials' }) };
      if (isAuthMessage(env.msg, 'FULL_AUTH_REQUIRED')) return { ...base, settle: 'reject', toast: quiet({ intent: 'danger', key: 'http.authFailed' }) };
      return { ...base, settle: 'reject', toast: quiet(textOr(env.msg)) };
    case Codes.LOGIN_NEEDS_ACTION:
      return { ...base, settle: 'envelope', toast: quiet({ intent: 'warning', text: env.msg || undefined, key: env.msg ? undefined : 'http.error' }) };
    case Codes.SESSION_INVALID:
      return {
        ...base,
        settle: 'reject',
        toast: { intent: 'warning', key: 'http.loginExpired' },
        endSession: true,
        reload: !input.pathname.startsWith('/quickAccess'),
      };
    default:
      if (RETURNED_SILENTLY.has(env.code)) return { ...base, settle: 'envelope', toast: null };
      return { ...base, settle: 'reject', toast: quiet(textOr(env.msg)) };
  }
}
