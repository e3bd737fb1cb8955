import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Codes, httpStatusFor, isProtocolMessage, validationMessage, type Envelope } from '@linguaport/sdk/shared';
import { requestLocale } from '@linguaport/sdk/server';

/** Every failure becomes a `{code, msg, data}` envelope; only ours and 4xx framework errors say why. */

interface ApiErrorLike {
  name: 'ApiError';
  code: number;
  message: string;
  /** The message in both languages, when the thrower gave both. */
  messages?: Record<string, string> | null;
  data?: unknown;
}

interface ZodErrorLike {
  name: string;
  issues: { path: PropertyKey[]; message: string }[];
}

/** Duck-typed: a plugin may carry its own copy of the SDK's ApiError class. */
export function isApiError(err: unknown): err is ApiErrorLike {
  return !!err && typeof err === 'object' && (err as { name?: unknown }).name === 'ApiError' && typeof (err as { code?: unknown }).code === 'number';
}

function isZodError(err: unknown): err is ZodErrorLike {
  return !!err && typeof err === 'object' && (err as { name?: unknown }).name === 'ZodError' && Array.isArray((err as { issues?: unknown }).issues);
}

/** `query.page: Invalid input: expected number, received NaN; body.name: Too small...` */
export function describeIssues(issues: ZodErrorLike['issues'], location?: string): string {
  return issues
    .map((i) => {
      const path = [location, ...i.path.map(String)].filter(Boolean).join('.');
      return `${path || '(root)'}: ${i.message}`;
    })
    .join('; ');
}

/** The LibreTranslate-compatible API answers LibreTranslate's `{error}` on every path, failures included. */
export const isLtPath = (url: string) => {
  const path = url.split('?')[0]!;
  return path === '/api/lt' || path.startsWith('/api/lt/');
};

export function sendError(err: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (isLtPath(request.url)) {
    let status = 500;
    let error = 'Internal server error';
    if (isApiError(err)) {
      status = httpStatusFor(err.code);
      error = err.message;
    } else if (isClientError(err)) {
      status = err.statusCode!;
      // Malformed JSON and the like: LibreTranslate's wording starts every refusal with "Invalid request".
      error = status === 400 ? `Invalid request: ${err.message}` : err.message;
    } else {
      request.log.error({ err }, `unhandled error in ${request.method} ${request.url}`);
    }
    return reply.status(status).type('application/json; charset=utf-8').send({ error });
  }
  let envelope: Envelope<unknown>;
  let status: number;
  if (isApiError(err)) {
    const localized = err.messages?.[requestLocale(request.headers)] ?? err.message;
    // A protocol text clients match on stays English in msg; the reader's language goes beside it.
    envelope = isProtocolMessage(err.message)
      ? { code: err.code, msg: err.message, data: err.data ?? null, ...(localized !== err.message ? { localizedMsg: localized } : {}) }
      : { code: err.code, msg: localized, data: err.data ?? null };
    status = httpStatusFor(err.code);
  } else if (isZodError(err)) {
    // A handler's own parse: its messages may be validation keys, read out in the request's language.
    const locale = requestLocale(request.headers);
    const problems = describeIssues(err.issues.map((i) => ({ ...i, message: validationMessage(i.message, locale, (i as { params?: Record<string, unknown> }).params) })));
    envelope = { code: Codes.BAD_REQUEST, msg: locale === 'en-US' ? `Invalid request: ${problems}` : `请求无效：${problems}`, data: null };
    status = 400;
  } else if (isClientError(err)) {
    // Framework refusals (malformed JSON, unsupported media type, body too large) are the caller's fault.
    status = err.statusCode!;
    const code = [Codes.BAD_REQUEST, Codes.FORBIDDEN, Codes.NOT_FOUND, Codes.CONFLICT, Codes.TOO_MANY].includes(status as never) ? status : Codes.BAD_REQUEST;
    envelope = { code, msg: frameworkMessage(err, requestLocale(request.headers)), data: null };
  } else {
    request.log.error({ err }, `unhandled error in ${request.method} ${request.url}`);
    envelope = { code: Codes.INTERNAL, msg: requestLocale(request.headers) === 'en-US' ? 'Internal server error' : '服务器内部错误', data: null };
    status = 500;
  }
  return reply.status(status).type('application/json; charset=utf-8').send(envelope);
}

/** Fastify's own refusals in Chinese for a Chinese console (English is what fastify says). */
const FRAMEWORK_ZH: Record<string, string> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: '请求体为空，但内容类型声明为 application/json',
  FST_ERR_CTP_INVALID_JSON_BODY: '请求体不是有效的 JSON',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: '不支持的内容类型',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: '请求体长度与 Content-Length 不符',
  FST_ERR_CTP_BODY_TOO_LARGE: '请求体过大',
};

function frameworkMessage(err: FastifyError, locale: string): string {
  // Ours already speak the request's language (the upload limit's 413); fastify's speak English.
  if (locale === 'en-US' || /[\u3400-\u9fff]/.test(err.message)) return err.message;
  const known = err.code ? FRAMEWORK_ZH[err.code] : undefined;
  if (known) return known;
  // A JSON syntax error has no fastify code; any other refusal keeps fastify's words after a Chinese lead.
  if (err instanceof SyntaxError) return FRAMEWORK_ZH.FST_ERR_CTP_INVALID_JSON_BODY!;
  return `请求无效（${err.message}）`;
}

function isClientError(err: unknown): err is FastifyError {
  const status = (err as FastifyError | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
}
