import type { Kysely, Transaction } from 'kysely';

/**
 * Writing a long import without holding the database. On the embedded database (PGlite) a
 * transaction holds the one connection and runs on the main thread: one transaction of 200,000 rows
 * stalled every request for 20 s. So rows are committed in small batches, each its own transaction,
 * with a turn of the event loop between them, and an import that fails or is cancelled takes its
 * rows out again the same way (they carry the import's stamp).
 */

/** Rows a batch: small enough that one batch's insert keeps other requests waiting well under 100 ms. */
export const IMPORT_WRITE_BATCH = 500;

/** Lets timers, I/O and other requests run before the next piece of work. */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Commits `rows` in batches of `size`, yielding between them. `after(written)` runs after each commit
 * (progress); the signal is checked before each batch. Returns the rows written.
 */
export async function commitInBatches<R>(
  db: Kysely<any>,
  rows: AsyncIterable<R> | Iterable<R>,
  write: (trx: Transaction<any>, batch: R[]) => Promise<void>,
  opts: { size?: number; signal?: AbortSignal; after?: (written: number) => Promise<void> | void } = {},
): Promise<number> {
  const size = opts.size ?? IMPORT_WRITE_BATCH;
  let batch: R[] = [];
  let written = 0;
  const flush = async () => {
    if (opts.signal?.aborted) throw opts.signal.reason;
    const rows = batch;
    batch = [];
    await db.transaction().execute((trx) => write(trx, rows));
    written += rows.length;
    await opts.after?.(written);
    await yieldToEventLoop();
  };
  for await (const row of rows) {
    batch.push(row);
    if (batch.length >= size) await flush();
  }
  if (batch.length) await flush();
  return written;
}

/** Deletes in batches until `remove` (which deletes at most `limit` rows and says how many) finds none. */
export async function removeInBatches(db: Kysely<any>, remove: (trx: Transaction<any>, limit: number) => Promise<number>, size = IMPORT_WRITE_BATCH * 4): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await db.transaction().execute((trx) => remove(trx, size));
    total += n;
    if (n < size) return total;
    await yieldToEventLoop();
  }
}
