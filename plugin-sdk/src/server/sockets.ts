import type { Caller, RouteAccess } from './index.js';

/**
 * A plugin's own WebSocket (`ctx.socket`): live two-way work that a request and an answer cannot carry
 * (streamed microphone audio and captions). The kernel authenticates the connection as it does its own
 * event socket: the session token in the query (`?token=`, browsers cannot set headers on a WebSocket),
 * the route's access checked on connect, the plugin's on/off state too; the socket is closed when the
 * session ends (sign-out, password change, disabled account) and when the plugin stops.
 */
export interface SocketDefinition {
  /** Path under `/api`, e.g. `/interpretation/socket` (served as `/api/interpretation/socket`). */
  url: string;
  /** Who may connect: `'signed-in'`, `'member'` or a permission key the manifest declares. */
  access: Exclude<RouteAccess, 'public'>;
  /** Called once the caller is admitted; messages that arrived before are kept for `onMessage`. */
  connect(socket: PluginSocket, connection: SocketConnection): void | Promise<void>;
}

export interface SocketConnection {
  caller: Caller;
  /** The query string's values (the token removed). */
  query: Record<string, string | undefined>;
  headers: Record<string, string | string[] | undefined>;
  ip: string;
}

export interface PluginSocket {
  readonly isOpen: boolean;
  /** Bytes queued for the peer and not yet sent. */
  readonly bufferedAmount: number;
  send(data: string | Uint8Array): void;
  close(code?: number, reason?: string): void;
  /** Text frames come as strings, binary frames as bytes. */
  onMessage(listener: (data: string | Uint8Array) => void): void;
  onClose(listener: (code: number, reason: string) => void): void;
}

/** Close codes the kernel uses on a plugin socket (the console words them from the code). */
export const SocketCloseCodes = {
  /** No valid session (or it ended). */
  SESSION_INVALID: 4401,
  /** The caller lacks the socket's permission (or its kind of sign-in does not reach it). */
  FORBIDDEN: 4403,
  /** The plugin is switched off (or stopped). */
  UNAVAILABLE: 4404,
} as const;
