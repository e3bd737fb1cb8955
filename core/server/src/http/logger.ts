import type { FastifyBaseLogger } from 'fastify';
import type { Logger } from '@linguaport/sdk/server';

/** The SDK's `(msg, extra)` logger over pino's `(extra, msg)`, optionally tagged with bindings. */
export function sdkLogger(base: FastifyBaseLogger, bindings?: Record<string, unknown>): Logger {
  const log = bindings ? base.child(bindings) : base;
  const at = (level: 'debug' | 'info' | 'warn' | 'error') => (msg: string, extra?: object) => (extra ? log[level](extra, msg) : log[level](msg));
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
