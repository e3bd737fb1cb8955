import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Codes, httpStatusFor, type Envelope } from '@linguaport/sdk/shared';

/** Every failure becomes a `{code, msg, data}` envelope; only ours and 4xx framework errors say why. */

interface ApiErrorLike {
  name: 'ApiError';
  code: number;
  message: string;
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
    envelope = { code: err.code, msg: err.message, data: err.data ?? null };
    status = httpStatusFor(err.code);
  } else if (isZodError(err)) {
    envelope = { code: Codes.BAD_REQUEST, msg: `Invalid request: ${describeIssues(err.issues)}`, data: null };
    status = 400;
  } else if (isClientError(err)) {
    // Framework refusals (malformed JSON, unsupported media type, body too large) are the caller's fault.
    status = err.statusCode!;
    const code = [Codes.BAD_REQUEST, Codes.FORBIDDEN, Codes.NOT_FOUND, Codes.CONFLICT, Codes.TOO_MANY].includes(status as never) ? status : Codes.BAD_REQUEST;
    envelope = { code, msg: err.message, data: null };
  } else {
    request.log.error({ err }, `unhandled error in ${request.method} ${request.url}`);
    envelope = { code: Codes.INTERNAL, msg: 'Internal server error', data: null };
    status = 500;
  }
  return reply.status(status).type('application/json; charset=utf-8').send(envelope);
}

function isClientError(err: unknown): err is FastifyError {
  const status = (err as FastifyError | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
}
