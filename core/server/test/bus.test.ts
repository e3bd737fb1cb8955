import type { DomainEvent } from '@linguaport/sdk/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requirePostgres } from '@linguaport/sdk/testing';
import { createEventBus, MAX_INLINE_BYTES, type KernelEventBus } from '../src/bus/events.js';
import { coreMigrations } from '../src/db/core-migrations.js';
import { runMigrations } from '../src/db/migrations.js';
import { openTestDatabase, type TestDatabase } from './support/test-database.js';

// Two instances on one database need PostgreSQL (PGlite is one process's own): skipped in the PGlite stage.
const onPostgres = requirePostgres();
let t: TestDatabase;
let bus: KernelEventBus;
const errors: string[] = [];
const logger = { error: (msg: string) => void errors.push(msg) };

beforeAll(async () => {
  t = await openTestDatabase();
  await runMigrations(t.database, 'core', coreMigrations);
  bus = await createEventBus(t.database, { logger });
});

afterAll(async () => {
  await bus?.close();
  await t?.cleanup();
});

/**
 * Waits until everything published before now has reached `receiver`: a witness event sent by `sender`
 * after them arrives in order behind them. A "nothing more came" assertion can then be made.
 */
let witnesses = 0;
async function settled(receiver: KernelEventBus = bus, sender: KernelEventBus = bus) {
  const n = ++witnesses;
  let arrived = false;
  const sub = receiver.events('test.witness').subscribe((e) => {
    if ((e.payload as { n: number }).n === n) arrived = true;
  });
  try {
    await sender.publish({ type: 'test.witness', payload: { n } });
    await expect.poll(() => arrived, { timeout: 10_000, interval: 20 }).toBe(true);
  } finally {
    sub.unsubscribe();
  }
}

function collect(source: KernelEventBus, type?: string) {
  const seen: DomainEvent[] = [];
  const subscription = source.events(type).subscribe((e) => seen.push(e));
  return { seen, stop: () => subscription.unsubscribe() };
}

describe(`event bus (${onPostgres ? 'postgres' : 'pglite'})`, () => {
  it('delivers a published event to subscribers in this process, once', async () => {
    const all = collect(bus);
    await bus.publish({ type: 'message.created', payload: { id: 7 }, audience: { userIds: [1] } });
    await settled();
    expect(all.seen.filter((e) => e.type !== 'test.witness')).toEqual([{ type: 'message.created', payload: { id: 7 }, audience: { userIds: [1] } }]);
    all.stop();
  });

  it('filters by type', async () => {
    const messages = collect(bus, 'message.created');
    await bus.publish({ type: 'engine.expired', payload: {} });
    await bus.publish({ type: 'message.created', payload: { id: 8 } });
    await settled();
    expect(messages.seen.map((e) => e.payload)).toEqual([{ id: 8 }]);
    messages.stop();
  });

  it('hands subscribers a JSON copy, the same shape another instance would get', async () => {
    const all = collect(bus);
    const payload = { at: new Date('2024-01-02T03:04:05Z'), list: [1, 2] };
    await bus.publish({ type: 'file.stored', payload });
    expect(all.seen[0].payload).toEqual({ at: '2024-01-02T03:04:05.000Z', list: [1, 2] });
    expect(all.seen[0].payload).not.toBe(payload);
    all.stop();
  });

  it('refuses an event without a type', async () => {
    await expect(bus.publish({ type: '', payload: 1 })).rejects.toThrow('a domain event needs a non-empty string type');
  });

  it.runIf(onPostgres)('lets two instances on one database see each other’s events exactly once', async () => {
    const otherDatabase = await t.open();
    const other = await createEventBus(otherDatabase, { logger });
    try {
      const here = collect(bus);
      const there = collect(other);
      await bus.publish({ type: 'from.here', payload: { n: 1 } });
      await other.publish({ type: 'from.there', payload: { n: 2 } });
      await expect.poll(() => here.seen.length + there.seen.length, { timeout: 5000 }).toBe(4);
      // Each side hears a witness from the other after the events: no echo or duplicate is still on its way.
      await settled(bus, other);
      await settled(other, bus);
      const types = (seen: DomainEvent[]) => seen.map((e) => e.type).filter((t) => t !== 'test.witness').sort();
      expect(types(here.seen)).toEqual(['from.here', 'from.there']);
      expect(types(there.seen)).toEqual(['from.here', 'from.there']);
    } finally {
      await other.close();
      await otherDatabase.close();
    }
  });

  it('lists only its own publications on localEvents', async () => {
    const mine: DomainEvent[] = [];
    const sub = bus.localEvents('local.check').subscribe((e) => mine.push(e));
    await bus.publish({ type: 'local.check', payload: { n: 1 } });
    await bus.publish({ type: 'other.type', payload: {} });
    sub.unsubscribe();
    expect(mine.map((e) => e.payload)).toEqual([{ n: 1 }]);
  });

  it.runIf(onPostgres)('keeps another instance\'s events off localEvents', async () => {
    const otherDatabase = await t.open();
    const other = await createEventBus(otherDatabase, { logger });
    try {
      const everything = collect(bus, 'from.there');
      const mine: DomainEvent[] = [];
      const sub = bus.localEvents('from.there').subscribe((e) => mine.push(e));
      await other.publish({ type: 'from.there', payload: {} });
      await expect.poll(() => everything.seen.length, { timeout: 5000 }).toBe(1);
      await settled(bus, other);
      expect(mine).toEqual([]);
      sub.unsubscribe();
    } finally {
      await other.close();
      await otherDatabase.close();
    }
  });

  it.runIf(onPostgres)('carries an event too large for NOTIFY through the payload table, in order', async () => {
    const otherDatabase = await t.open();
    const other = await createEventBus(otherDatabase, { logger });
    try {
      const there = collect(other);
      const big = 'x'.repeat(MAX_INLINE_BYTES * 3);
      await bus.publish({ type: 'big.one', payload: { big } });
      await bus.publish({ type: 'small.after', payload: {} });
      await expect.poll(() => there.seen.length, { timeout: 5000 }).toBe(2);
      await settled(other, bus);
      expect(there.seen.map((e) => e.type).filter((t) => t !== 'test.witness')).toEqual(['big.one', 'small.after']);
      expect((there.seen[0].payload as { big: string }).big).toBe(big);
      const stored = await t.database.query(`SELECT id FROM kernel_event_payloads`);
      expect(stored).toHaveLength(1);
    } finally {
      await other.close();
      await otherDatabase.close();
    }
  });

  it('stops delivering and refuses to publish once closed', async () => {
    const closing = await createEventBus(t.database, { logger });
    let completed = false;
    closing.events().subscribe({ complete: () => (completed = true) });
    await closing.close();
    expect(completed).toBe(true);
    await expect(closing.publish({ type: 'late', payload: null })).rejects.toThrow('the event bus is closed');
  });

  it('logged no errors', () => {
    expect(errors).toEqual([]);
  });
});
