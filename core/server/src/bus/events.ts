import { randomUUID } from 'node:crypto';
import type { DomainEvent, EventBus, Logger } from '@linguaport/sdk/server';
import { filter, Subject, type Observable } from 'rxjs';
import type { Database } from '../db/database.js';

export const EVENTS_CHANNEL = 'linguaport_events';
/** NOTIFY payloads must stay under 8000 bytes; bigger events travel by reference. */
export const MAX_INLINE_BYTES = 7900;
/** Stored payloads only need to outlive delivery; older ones are swept on the next large publish. */
const STORED_PAYLOAD_TTL = '10 minutes';

/** On the wire: the sending instance, and the event itself or the id of its stored copy. */
type Wire = { o: string; e: DomainEvent } | { o: string; ref: string };

export type KernelEventBus = EventBus & {
  /**
   * Only the events published by this instance. A kernel reaction that itself publishes (a bridge
   * from one event to another) listens here, so N instances do not each react to the same event.
   */
  localEvents(type?: string): Observable<DomainEvent>;
  close(): Promise<void>;
};

function checkEvent(event: DomainEvent): void {
  if (!event || typeof event.type !== 'string' || !event.type.trim()) {
    throw new Error('a domain event needs a non-empty string type');
  }
}

/**
 * Domain events: an in-process RxJS subject; on PostgreSQL also NOTIFY/LISTEN on one channel so every
 * server instance on the database sees every event once (an instance skips the echo of its own
 * NOTIFY, having delivered the event in process already). Events are JSON: every subscriber, near or
 * far, receives the same JSON-shaped copy. Needs the core migrations (`kernel_event_payloads`).
 */
export async function createEventBus(database: Database, options: { logger?: Pick<Logger, 'error'> } = {}): Promise<KernelEventBus> {
  const logger = options.logger ?? { error: (msg: string) => console.error(msg) };
  const subject = new Subject<DomainEvent>();
  const local = new Subject<DomainEvent>();
  const instance = randomUUID();
  const shared = database.kind === 'postgres';
  let closed = false;

  const deliver = (json: string) => {
    if (!closed) subject.next(JSON.parse(json) as DomainEvent);
  };

  // Stored payloads are fetched asynchronously; a queue keeps arrival order for everything after them.
  let receiving: Promise<void> = Promise.resolve();
  const receive = async (raw: string) => {
    let wire: Wire;
    try {
      wire = JSON.parse(raw) as Wire;
    } catch {
      logger.error(`event bus: ignored a malformed notification on ${EVENTS_CHANNEL}`);
      return;
    }
    if (wire.o === instance) return;
    if ('e' in wire) {
      deliver(JSON.stringify(wire.e));
      return;
    }
    const rows = await database.query<{ body: string }>(`SELECT body FROM kernel_event_payloads WHERE id = $1`, [wire.ref]);
    if (rows[0]) deliver(rows[0].body);
    else logger.error(`event bus: stored event ${wire.ref} was gone before it could be read`);
  };

  const unlisten = shared
    ? await database.listen(EVENTS_CHANNEL, (raw) => {
        receiving = receiving.then(() => receive(raw)).catch((err: Error) => logger.error(`event bus: ${err.message}`));
      })
    : null;

  return {
    async publish<T>(event: DomainEvent<T>) {
      if (closed) throw new Error('the event bus is closed');
      checkEvent(event);
      const body = JSON.stringify({ type: event.type, payload: event.payload ?? null, ...(event.audience ? { audience: event.audience } : {}) });
      if (shared) {
        // Other instances first: if the database refuses, nobody has seen the event.
        let wire = JSON.stringify({ o: instance, e: JSON.parse(body) } satisfies Wire);
        if (Buffer.byteLength(wire) > MAX_INLINE_BYTES) {
          await database.query(`DELETE FROM kernel_event_payloads WHERE created_at < now() - interval '${STORED_PAYLOAD_TTL}'`, []);
          const [row] = await database.query<{ id: number | string }>(
            `INSERT INTO kernel_event_payloads (body) VALUES ($1) RETURNING id`,
            [body],
          );
          wire = JSON.stringify({ o: instance, ref: String(row.id) } satisfies Wire);
        }
        await database.notify(EVENTS_CHANNEL, wire);
      }
      deliver(body);
      if (!closed) local.next(JSON.parse(body) as DomainEvent);
    },

    events(type?: string): Observable<DomainEvent> {
      const all = subject.asObservable();
      return type ? all.pipe(filter((event) => event.type === type)) : all;
    },

    localEvents(type?: string): Observable<DomainEvent> {
      const mine = local.asObservable();
      return type ? mine.pipe(filter((event) => event.type === type)) : mine;
    },

    async close() {
      if (closed) return;
      closed = true;
      await unlisten?.();
      await receiving;
      subject.complete();
      local.complete();
    },
  };
}
