import WebSocket from 'ws';

/** A client of the live socket for tests: every message kept, waited for by a test with a deadline. */
export interface Live {
  socket: WebSocket;
  messages: any[];
  closed: Promise<{ code: number; reason: string }>;
  /** Waits for a message matching `test` (already received or to come). */
  waitFor(test: (m: any) => boolean, timeoutMs?: number): Promise<any>;
}

const opened = new Set<WebSocket>();

/**
 * Ends every socket a test opened and left open (a test that failed half-way): the kernel's shutdown
 * waits for live sessions, so one left open would hold the file's teardown until its hook times out.
 */
export function closeLiveSockets(): void {
  for (const socket of opened) socket.terminate();
  opened.clear();
}

/** Opens `base` (`ws://.../api/interpretation/live`) with the session token and `query` (`&source=en...`). */
export function connectLive(base: string, token: string, query = '', headers: Record<string, string> = { cookie: 'locale=en-US' }): Live {
  const socket = new WebSocket(`${base}?token=${encodeURIComponent(token)}${query}`, { headers });
  opened.add(socket);
  const messages: any[] = [];
  const listeners = new Set<() => void>();
  socket.on('message', (data) => {
    messages.push(JSON.parse(String(data)));
    for (const l of listeners) l();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => {
      opened.delete(socket);
      resolve({ code, reason: String(reason) });
    }),
  );
  const waitFor = (test: (m: any) => boolean, timeoutMs = 30_000) =>
    new Promise<any>((resolve, reject) => {
      const check = () => {
        const hit = messages.find(test);
        if (hit) {
          listeners.delete(check);
          clearTimeout(timer);
          resolve(hit);
        }
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(messages)}`));
      }, timeoutMs);
      listeners.add(check);
      check();
    });
  return { socket, messages, closed, waitFor };
}
