import type { ConsoleBus } from '@linguaport/sdk/console';

export interface WsBridgeDeps {
  bus: ConsoleBus;
  token(): string | null;
  /** GET /api/user/showWebSocketInfo -> { path }. */
  socketPath(): Promise<string>;
  createSocket?: (url: string) => WebSocket;
  location?: { protocol: string; host: string };
}

/** Delay before reconnect attempt `n` (0-based): 1 s doubling up to 30 s. */
export function backoffMs(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5));
}

export function socketUrl(path: string, token: string, loc: { protocol: string; host: string }): string {
  const base = /^wss?:\/\//.test(path) ? path : `${loc.protocol === 'https:' ? 'wss:' : 'ws:'}//${loc.host}${path.startsWith('/') ? '' : '/'}${path}`;
  return `${base}${base.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
}

/**
 * Server pushes `{type, payload}` onto the bus. Runs only while signed in; reconnects with
 * backoff after a drop, and stops for good on `stop()` (sign-out).
 */
export class WsBridge {
  private socket: WebSocket | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private running = false;

  constructor(private readonly deps: WsBridgeDeps) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.attempt = 0;
    void this.connect();
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const s = this.socket;
    this.socket = null;
    s?.close();
  }

  private async connect(): Promise<void> {
    const token = this.deps.token();
    if (!this.running || !token) return this.stop();
    let url: string;
    try {
      url = socketUrl(await this.deps.socketPath(), token, this.deps.location ?? globalThis.location);
    } catch {
      return this.retry();
    }
    if (!this.running) return;
    const socket = (this.deps.createSocket ?? ((u) => new WebSocket(u)))(url);
    this.socket = socket;
    socket.onopen = () => { this.attempt = 0; };
    socket.onmessage = (e) => {
      try {
        const msg = JSON.parse(String(e.data)) as { type?: unknown; payload?: unknown };
        if (typeof msg.type === 'string') this.deps.bus.emit({ type: msg.type, payload: msg.payload });
      } catch {
        // Not a bus message; ignore it rather than break the stream.
      }
    };
    socket.onclose = () => {
      if (this.socket === socket) this.retry();
    };
  }

  private retry(): void {
    if (!this.running) return;
    this.socket = null;
    this.timer = setTimeout(() => void this.connect(), backoffMs(this.attempt++));
  }
}
