import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { SocketCloseCodes, type Caller, type DomainEvent, type EventBus, type PluginSocket, type SocketDefinition } from '@linguaport/sdk/server';
import { can } from '../access/passwords.js';
import { reachRefusal } from '../access/reach.js';
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
  /**
   * A plugin's own socket at `/api<url>` (ctx.socket): token in the query, the plugin on, the access
   * checked on connect (as a route's), closed with the session. Only before the app is ready.
   */
  accept(def: SocketDefinition, owner: { pluginId: string; declaredPermissions: ReadonlySet<string> }): void;
  /** Closes a plugin's sockets (its server part stops). */
  closePlugin(pluginId: string): void;
}

export async function registerWebSocket(
  app: FastifyInstance,
  deps: { bus: EventBus; resolveCaller(token: string): Promise<SessionCaller | null>; pingMs?: number; isPluginEnabled?(pluginId: string): boolean },
): Promise<WebSocketHub> {
  await app.register(fastifyWebsocket);
  const bySession = new Map<string, Set<WebSocket>>();
  const byPlugin = new Map<string, Set<WebSocket>>();
  let sealed = false;
  app.addHook('onReady', async () => {
    sealed = true;
  });
  const track = (map: Map<string, Set<WebSocket>>, key: string, socket: WebSocket) => {
    map.set(key, (map.get(key) ?? new Set<WebSocket>()).add(socket));
    socket.on('close', () => {
      const set = map.get(key);
      set?.delete(socket);
      if (set?.size === 0) map.delete(key);
    });
  };

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
    accept(def, owner) {
      const where = `plugin ${owner.pluginId} socket ${def.url}`;
      if (!def.url?.startsWith('/')) throw new Error(`${where}: url must start with a slash (it is served under /api)`);
      const access = def.access as unknown;
      const keys = access && typeof access === 'object' ? ('permission' in access ? [(access as { permission: string }).permission] : ((access as { anyPermission?: string[] }).anyPermission ?? [])) : [];
      if (access !== 'signed-in' && access !== 'member' && keys.length === 0) throw new Error(`${where}: access must be 'signed-in', 'member', {permission} or {anyPermission}`);
      for (const key of keys) if (!owner.declaredPermissions.has(key)) throw new Error(`${where} needs permission ${key}, which the plugin's manifest does not declare`);
      if (sealed) throw new Error(`${where}: sockets are declared in setup, before the server is ready (not by a package started later)`);
      app.get(`/api${def.url}`, { websocket: true }, async (socket, request) => {
        // Frames that arrive while the caller is being resolved are kept for the plugin's listener.
        const early: (string | Uint8Array)[] = [];
        let listener: ((data: string | Uint8Array) => void) | null = null;
        socket.on('message', (data, isBinary) => {
          const frame = isBinary ? new Uint8Array(Buffer.isBuffer(data) ? data : Buffer.concat(data as Buffer[])) : String(data);
          if (listener) listener(frame);
          else early.push(frame);
        });
        if (deps.isPluginEnabled && !deps.isPluginEnabled(owner.pluginId)) return socket.close(SocketCloseCodes.UNAVAILABLE, `Feature area ${owner.pluginId} is disabled`);
        const { token, ...query } = request.query as Record<string, string | undefined>;
        const caller = typeof token === 'string' && token ? await deps.resolveCaller(token) : null;
        if (!caller) return socket.close(SocketCloseCodes.SESSION_INVALID, 'Login expired, please sign in again');
        const refusal = reachRefusal(caller, { access: def.access }, request.headers);
        const allowed = caller.isSuperAdmin || access === 'signed-in' || access === 'member' || keys.some((k) => caller.permissions.has(k));
        if (refusal || !allowed) return socket.close(SocketCloseCodes.FORBIDDEN, `Permission denied: this socket needs the permission ${keys.join(' or ') || String(access)}`);
        track(bySession, caller.tokenHash, socket);
        track(byPlugin, owner.pluginId, socket);
        const ping = setInterval(() => socket.readyState === socket.OPEN && socket.ping(), deps.pingMs ?? 30_000);
        socket.on('close', () => clearInterval(ping));
        const wrapped: PluginSocket = {
          get isOpen() {
            return socket.readyState === socket.OPEN;
          },
          get bufferedAmount() {
            return socket.bufferedAmount;
          },
          send: (data) => void (socket.readyState === socket.OPEN && socket.send(data)),
          close: (code, reason) => socket.close(code ?? 1000, reason),
          onMessage(fn) {
            listener = fn;
            for (const frame of early.splice(0)) fn(frame);
          },
          onClose: (fn) => void socket.on('close', (code, reason) => fn(code, String(reason))),
        };
        try {
          await def.connect(wrapped, { caller, query, headers: request.headers, ip: request.ip });
        } catch (err) {
          request.log.error({ err }, `${where}: connect failed`);
          socket.close(1011, 'Server error');
        }
      });
    },
    closePlugin(pluginId) {
      for (const socket of byPlugin.get(pluginId) ?? []) socket.close(SocketCloseCodes.UNAVAILABLE, 'Feature area stopped');
    },
  };
}

