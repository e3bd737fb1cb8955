import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { Caller, DomainEvent, EventBus } from '@linguaport/sdk/server';
import { can } from '../access/passwords.js';
import type { SessionCaller } from '../access/sessions.js';

/**
 * `/api/ws?token=...`: pushes the domain events addressed to the connection's user as
 * `{type, payload}`, after a first `{type: 'ws.ready'}` once the connection is subscribed. Browsers cannot set headers on a WebSocket, hence the token in the query.
 */

export const WS_PATH = '/api/ws';
/** The first message of a connection, sent once its subscription is in place. */
export const WS_READY = 'ws.ready';
/** Close code sent when the token is not (or no longer) a valid session. */
export const WS_SESSION_INVALID = 4401;

export function isAddressedTo(event: DomainEvent, caller: Caller): boolean {
  const audience = event.audience;
  if (!audience || (!audience.userIds && !audience.permission)) return true;
  if (audience.userIds?.includes(caller.userId)) return true;
  return !!audience.permission && can(caller, audience.permission);
}

export interface WebSocketHub {
  /** Closes the sockets opened with this session (logout, department switch). */
  closeSession(tokenHash: string): void;
}

export async function registerWebSocket(
  app: FastifyInstance,
  deps: { bus: EventBus; resolveCaller(token: string): Promise<SessionCaller | null>; pingMs?: number },
): Promise<WebSocketHub> {
  await app.register(fastifyWebsocket);
  const bySession = new Map<string, Set<WebSocket>>();

  app.get(WS_PATH, { websocket: true }, async (socket, request) => {
    const token = (request.query as Record<string, unknown>).token;
    const caller = typeof token === 'string' && token ? await deps.resolveCaller(token) : null;
    if (!caller) {
      socket.close(WS_SESSION_INVALID, 'Login expired, please sign in again');
      return;
    }
    const sockets = bySession.get(caller.tokenHash) ?? new Set<WebSocket>();
    bySession.set(caller.tokenHash, sockets.add(socket));
    const subscription = deps.bus.events().subscribe((event) => {
      if (socket.readyState === socket.OPEN && isAddressedTo(event, caller)) socket.send(JSON.stringify({ type: event.type, payload: event.payload }));
    });
    // Subscribed: everything published from now on reaches this socket. The client may act on it
    // (reload what it could have missed while connecting; tests wait for it instead of sleeping).
    socket.send(JSON.stringify({ type: WS_READY, payload: null }));
    // Pings keep proxies from dropping an idle connection and reveal dead peers.
    const ping = setInterval(() => socket.readyState === socket.OPEN && socket.ping(), deps.pingMs ?? 30_000);
    socket.on('close', () => {
      clearInterval(ping);
      subscription.unsubscribe();
      sockets.delete(socket);
      if (sockets.size === 0) bySession.delete(caller.tokenHash);
    });
  });

  return {
    closeSession(tokenHash) {
      for (const socket of bySession.get(tokenHash) ?? []) socket.close(WS_SESSION_INVALID, 'Signed out');
    },
  };
}
