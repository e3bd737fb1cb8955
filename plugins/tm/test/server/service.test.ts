import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledQuery } from 'kysely';
import { ApiError, type MemoryService } from '@linguaport/sdk/server';
import { createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';
import { exactKey } from '../../server/match/text.js';

// `tm.memories` as another area uses it: the fixture plugin `memory-client` asks the kernel for the
// SDK's token (it never imports this plugin) and hands the service to the test. Every method against
// the real tables on PGlite: batched lookup, concordance, write, and the rights of the user it acts for.

let k: TestKernel;
let memories: MemoryService;
let owner: { userId: number; token: string };
let colleague: { userId: number; token: string };
let outsider: { userId: number };
let legal: number; // department-shared, the owner's default
let custom: number; // the colleague may use it, not edit it
const BULK = 500;

const ALL = ['tm:view', 'tm:library', 'tm:add', 'tm:edit', 'tm:delete', 'tm:review', 'tm:import', 'tm:export'];

/** Statements on the memory area's tables while `work` runs (the kernel's own background queries are not counted, nor the settings' refresh). */
async function tmQueries<T>(work: () => Promise<T>): Promise<{ result: T; queries: number }> {
  const executor = k.database.db.getExecutor();
  const original = executor.executeQuery.bind(executor);
  let queries = 0;
  executor.executeQuery = ((q: CompiledQuery) => {
    // The area's settings are cached a while and read again now and then: not a read of the batch.
    if (/\btm_/.test(q.sql) && !/\btm_settings\b/.test(q.sql)) queries++;
    return original(q);
  }) as typeof executor.executeQuery;
  try {
    return { result: await work(), queries };
  } finally {
    executor.executeQuery = original;
  }
}

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

beforeAll(async () => {
  k = await startTestKernel({ plugins: ['tm', { id: 'memory-client', path: join(import.meta.dirname, '..', 'fixtures', 'memory-client') }] });
  memories = (globalThis as Record<symbol, unknown>)[Symbol.for('linguaport.test.memoryService')] as MemoryService;
  const db = k.database.db;
  const a = await createUserWithRole(k, 'svc-owner', 'Owner-Passw0rd!', 'svc owners', ALL);
  const b = await createUserWithRole(k, 'svc-colleague', 'Colleague-Passw0rd!', 'svc users', ['tm:view']);
  const c = await createUserWithRole(k, 'svc-outsider', 'Outsider-Passw0rd!', 'svc others', ALL);
  const other = await db.insertInto('departments').values({ name: 'Service elsewhere', code: 'svc-elsewhere' }).returning('id').executeTakeFirstOrThrow();
  await db.updateTable('user_department_roles').set({ department_id: other.id }).where('user_id', '=', c.userId).execute();
  owner = { userId: a.userId, token: await k.login('svc-owner', 'Owner-Passw0rd!') };
  colleague = { userId: b.userId, token: await k.login('svc-colleague', 'Colleague-Passw0rd!') };
  outsider = { userId: c.userId };
  const made = await k.call('POST', '/api/TM/library/add', owner.token, { name: 'Legal', ownership: 'department', kind: 'shared', users: [], isDefault: true });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  legal = made.body.data.id;
  const c2 = await k.call('POST', '/api/TM/library/add', owner.token, { name: 'Read only', ownership: 'custom', kind: 'shared', users: [{ userId: colleague.userId, use: true, edit: false }] });
  custom = c2.body.data.id;
  // A memory of some size, written as an import would: sentence n of a template, with one checked entry carrying a TMX note.
  const rows = Array.from({ length: BULK }, (_, n) => ({
    library_id: legal,
    source: `The tenant shall pay the rent of month ${n} before the fifth day.`,
    target: `El inquilino pagará el alquiler del mes ${n} antes del quinto día.`,
    source_lang: 'en-US',
    target_lang: 'es-ES',
    source_base: 'en-Latn',
    target_base: 'es-Latn',
    source_hash: exactKey(`The tenant shall pay the rent of month ${n} before the fifth day.`),
    status: n === 0 ? 'checked' : 'unchecked',
    meta: JSON.stringify(n === 0 ? { notes: ['Clause 4'], attrs: { creationid: 'omegat-user' } } : {}),
    creator_id: owner.userId,
  }));
  await db.insertInto('tm_entries').values(rows).execute();
}, 180_000);

afterAll(async () => {
  await k?.shutdown();
});

describe('tm.memories: lookup', () => {
  it('answers exact and fuzzy matches per segment with what the entries carry, across language variants', async () => {
    const { memories: read, segments } = await memories.lookup({
      caller: { userId: owner.userId },
      sourceLang: 'en-GB',
      targetLang: 'es',
      segments: ['the tenant shall pay the rent  of month 0 before the fifth day.', 'The tenant shall pay the rent of month 7 before the sixth day.', 'Nothing like it at all.'],
      minScore: 70,
      maxMatches: 3,
    });
    // No memory named: the owner's default.
    expect(read).toEqual([legal]);
    const [exact, fuzzy, none] = segments;
    expect(exact![0]).toMatchObject({
      kind: 'exact',
      memoryId: legal,
      target: 'El inquilino pagará el alquiler del mes 0 antes del quinto día.',
      sourceLang: 'en-US',
      targetLang: 'es-ES',
      // en-GB asked, en-US held: another variant, the default penalty of 2 points.
      variant: 'variant',
      score: 98,
      createdBy: owner.userId,
      reviewState: 'checked',
      notes: ['Clause 4'],
      attrs: { creationid: 'omegat-user' },
      context: null,
    });
    expect(Date.parse(exact![0]!.createdAt)).not.toBeNaN();
    expect(exact!.length).toBeLessThanOrEqual(3);
    expect(fuzzy!.length).toBeGreaterThan(0);
    expect(fuzzy![0]).toMatchObject({ kind: 'fuzzy', memoryId: legal, source: 'The tenant shall pay the rent of month 7 before the fifth day.', reviewState: 'unchecked' });
    expect(fuzzy![0]!.score).toBeGreaterThanOrEqual(70);
    expect(fuzzy![0]!.score).toBeLessThan(100);
    expect(fuzzy![0]!.diff?.length).toBeGreaterThan(0);
    expect(none).toEqual([]);
  });

  it(`looks up ${BULK} segments in a couple of reads, as few as for 5, where one call per segment reads per segment`, async () => {
    const texts = Array.from({ length: BULK }, (_, n) => `The tenant shall pay the rent of month ${n} before the fifth day.`);
    const ask = (segments: string[]) => memories.lookup({ caller: { userId: owner.userId }, memories: [legal], sourceLang: 'en-US', targetLang: 'es-ES', segments, maxMatches: 2 });
    await ask(texts.slice(0, 1)); // the fuzzy index is built on the first lookup
    const five = await tmQueries(() => ask(texts.slice(0, 5)));
    const batch = await tmQueries(() => ask(texts));
    const single = await tmQueries(async () => {
      for (const t of texts.slice(0, 20)) await ask([t]);
    });
    expect(batch.result.segments).toHaveLength(BULK);
    batch.result.segments.forEach((matches, n) => expect(matches[0]).toMatchObject({ kind: 'exact', score: 100, target: `El inquilino pagará el alquiler del mes ${n} antes del quinto día.` }));
    // Rights, the exact tier, the fuzzy candidates: the same three reads whatever the batch's size.
    expect(batch.queries).toBe(3);
    expect(batch.queries).toBe(five.queries);
    // Twenty segments one at a time already read more than the whole batch.
    expect(single.queries).toBeGreaterThanOrEqual(20 * 2);
    console.log(`tm.memories lookup: ${BULK} segments in one call ${batch.queries} queries on tm_ tables; 20 segments one by one ${single.queries}`);
  });

  it('refuses a memory the user may not use (403) and one that does not exist (404), in both languages', async () => {
    const forbidden = await refusal(memories.lookup({ caller: { userId: outsider.userId }, memories: [legal], sourceLang: 'en', targetLang: 'es', segments: ['The tenant shall pay.'] }));
    expect(forbidden.code).toBe(403);
    expect(forbidden.messages).toEqual({ 'zh-CN': `权限不足：您不能使用记忆库 ${legal}`, 'en-US': `Insufficient permission: you may not use memory ${legal}` });
    const missing = await refusal(memories.lookup({ caller: { userId: owner.userId }, memories: [999_999], sourceLang: 'en', targetLang: 'es', segments: ['x'] }));
    expect(missing.code).toBe(404);
    // The outsider names none: its defaults are none of the owner's memories, so nothing is read.
    expect(await memories.lookup({ caller: { userId: outsider.userId }, sourceLang: 'en', targetLang: 'es', segments: ['The tenant shall pay the rent of month 1 before the fifth day.'] })).toEqual({ memories: [], segments: [[]] });
    // The department's colleague uses the department's memory (its department comes from the directory, not the consumer).
    const used = await memories.lookup({ caller: { userId: colleague.userId }, memories: [legal], sourceLang: 'en', targetLang: 'es', segments: ['The tenant shall pay the rent of month 1 before the fifth day.'] });
    expect(used.segments[0]![0]).toMatchObject({ kind: 'exact' });
  });

  it('refuses malformed input with a 400 in both languages', async () => {
    const bad = await refusal(memories.lookup({ caller: { userId: owner.userId }, sourceLang: 'not a tag!', targetLang: 'es', segments: [] }));
    expect(bad.code).toBe(400);
    expect(bad.messages?.['en-US']).toContain('sourceLang');
    expect(bad.messages?.['zh-CN']).toContain('sourceLang');
    expect((await refusal(memories.lookup({ caller: { userId: owner.userId }, sourceLang: 'en', targetLang: 'es', segments: ['a'], minScore: 101 }))).code).toBe(400);
  });
});

describe('tm.memories: concordance', () => {
  it('finds a phrase in the source, the target or either, paged, with where it occurs', async () => {
    const page = await memories.concordance({ caller: { userId: owner.userId }, memories: [legal], query: 'MONTH 1', side: 'source', pageNum: 2, pageSize: 5 });
    // "month 1", "month 10".."month 19", "month 100".."month 199": 111 entries.
    expect(page.total).toBe(111);
    expect(page).toMatchObject({ memories: [legal], pageNum: 2, pageSize: 5 });
    expect(page.records).toHaveLength(5);
    const first = page.records[0]!;
    expect(first.sourceHighlights.length).toBeGreaterThan(0);
    const [s, e] = first.sourceHighlights[0]!;
    expect(first.source.slice(s, e).toLowerCase()).toBe('month 1');
    expect((await memories.concordance({ caller: { userId: owner.userId }, memories: [legal], query: 'mes 42 antes', side: 'source' })).total).toBe(0);
    const target = await memories.concordance({ caller: { userId: owner.userId }, memories: [legal], query: 'mes 42 antes', side: 'target' });
    expect(target.records.map((r) => r.target)).toEqual(['El inquilino pagará el alquiler del mes 42 antes del quinto día.']);
    expect((await memories.concordance({ caller: { userId: owner.userId }, memories: [legal], query: 'mes 42 antes', targetLang: 'fr' })).total).toBe(0);
    expect((await refusal(memories.concordance({ caller: { userId: outsider.userId }, memories: [legal], query: 'rent' }))).code).toBe(403);
  });
});

describe('tm.memories: write', () => {
  const source = 'Press <1>Save</1> to keep the contract.';
  const count = async () => Number((await k.database.db.selectFrom('tm_entries').select((eb) => eb.fn.countAll().as('n')).where('library_id', '=', legal).executeTakeFirstOrThrow()).n);

  it('adds a confirmed pair, then updates the entry with the same source instead of adding another', async () => {
    const before = await count();
    const made = await memories.write({ caller: { userId: colleague.userId }, memoryId: custom, sourceLang: 'en', targetLang: 'es', source: 'x', target: 'y' }).catch((e: ApiError) => e);
    // The colleague may use the custom memory, not edit it.
    expect(made).toBeInstanceOf(ApiError);
    expect((made as ApiError).code).toBe(403);
    expect((made as ApiError).messages).toEqual({ 'zh-CN': `权限不足：您不能编辑记忆库 ${custom}`, 'en-US': `Insufficient permission: you may not edit memory ${custom}` });

    const first = await memories.write({ caller: { userId: owner.userId }, memoryId: legal, sourceLang: 'en-US', targetLang: 'es-ES', source, target: 'Pulse <1>Guardar</1> para conservar el contrato.', state: 'unchecked', context: { before: 'Read it.', after: 'Then sign.' } });
    expect(first).toMatchObject({ memoryId: legal, created: true });
    expect(await count()).toBe(before + 1);
    // The same source as the exact tier folds it (case, spaces): the same entry, its target, state and context replaced.
    const again = await memories.write({ caller: { userId: owner.userId }, memoryId: legal, sourceLang: 'en-US', targetLang: 'es-ES', source: 'press  <1>save</1> to keep the contract.', target: 'Haga clic en <1>Guardar</1> para conservar el contrato.', state: 'checked', context: { before: 'Read it again.' } });
    expect(again).toEqual({ entryId: first.entryId, memoryId: legal, created: false });
    expect(await count()).toBe(before + 1);
    const row = await k.database.db.selectFrom('tm_entries').selectAll().where('id', '=', first.entryId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ source: 'press  <1>save</1> to keep the contract.', target: 'Haga clic en <1>Guardar</1> para conservar el contrato.', status: 'checked', creator_id: owner.userId });
    const history = await k.database.db.selectFrom('tm_history').select(['action', 'actor_id']).where('entry_id', '=', first.entryId).orderBy('id').execute();
    expect(history).toEqual([
      { action: 'add', actor_id: owner.userId },
      { action: 'edit', actor_id: owner.userId },
    ]);
    // The next lookup sees it (the fuzzy index was dropped), with its context and author.
    const found = await memories.lookup({ caller: { userId: owner.userId }, memories: [legal], sourceLang: 'en-US', targetLang: 'es-ES', segments: [source, 'Press <1>Save</1> to keep the contracts.'] });
    expect(found.segments[0]![0]).toMatchObject({ kind: 'exact', entryId: first.entryId, reviewState: 'checked', context: { before: 'Read it again.' }, createdBy: owner.userId, attrs: expect.objectContaining({ changeid: String(owner.userId) }) });
    expect(found.segments[1]![0]).toMatchObject({ kind: 'fuzzy', entryId: first.entryId });
    // Another target variant is another entry.
    expect((await memories.write({ caller: { userId: owner.userId }, memoryId: legal, sourceLang: 'en-US', targetLang: 'es-MX', source, target: 'Oprima <1>Guardar</1> para conservar el contrato.' })).created).toBe(true);
  });

  it('refuses bad pairs with a 400 in both languages and writes nothing', async () => {
    const before = await count();
    const w = (over: Record<string, unknown>) => memories.write({ caller: { userId: owner.userId }, memoryId: legal, sourceLang: 'en', targetLang: 'es', source: 'Sign here.', target: 'Firme aquí.', ...over } as never);
    const same = await refusal(w({ targetLang: 'en' }));
    expect(same.code).toBe(400);
    expect(same.messages).toEqual({ 'zh-CN': '源语言和目标语言不能相同', 'en-US': 'The source and target languages must differ' });
    const tags = await refusal(w({ source: 'Press <1>Save</1>.', target: 'Pulse Guardar.' }));
    expect(tags.code).toBe(400);
    expect(tags.messages?.['en-US']).toContain('<1>');
    expect(tags.messages?.['zh-CN']).toContain('<1>');
    expect((await refusal(w({ source: '   ' }))).code).toBe(400);
    expect((await refusal(w({ state: 'failed' }))).code).toBe(400);
    expect((await refusal(w({ memoryId: 0 }))).code).toBe(400);
    expect(await count()).toBe(before);
  });
});
