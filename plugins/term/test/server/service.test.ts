import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledQuery } from 'kysely';
import { ApiError, type TermBaseService } from '@linguaport/sdk/server';
import { createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// `term.bases` as another area uses it: the fixture plugin `term-client` asks the kernel for the SDK's
// token (it never imports this plugin) and hands the service to the test. Recognition in one segment
// and in many, against the real tables on PGlite, and the rights of the user it acts for.

let k: TestKernel;
let terms: TermBaseService;
let owner: { userId: number; token: string };
let colleague: { userId: number };
let outsider: { userId: number };
let baseId: number;
const ALL = ['term:view', 'term:library', 'term:add', 'term:edit', 'term:delete', 'term:review', 'term:import', 'term:export'];

/** Statements on the term area's tables while `work` runs (the kernel's own background queries are not counted). */
async function termQueries<T>(work: () => Promise<T>): Promise<{ result: T; queries: number }> {
  const executor = k.database.db.getExecutor();
  const original = executor.executeQuery.bind(executor);
  let queries = 0;
  executor.executeQuery = ((q: CompiledQuery) => {
    if (/\bterm_/.test(q.sql)) queries++;
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
  k = await startTestKernel({ plugins: ['term', { id: 'term-client', path: join(import.meta.dirname, '..', 'fixtures', 'term-client') }] });
  terms = (globalThis as Record<symbol, unknown>)[Symbol.for('linguaport.test.termBaseService')] as TermBaseService;
  const db = k.database.db;
  const a = await createUserWithRole(k, 'tsvc-owner', 'Owner-Passw0rd!', 'tsvc owners', ALL);
  const b = await createUserWithRole(k, 'tsvc-colleague', 'Colleague-Passw0rd!', 'tsvc users', ['term:view']);
  const c = await createUserWithRole(k, 'tsvc-outsider', 'Outsider-Passw0rd!', 'tsvc others', ALL);
  const other = await db.insertInto('departments').values({ name: 'Term elsewhere', code: 'term-elsewhere' }).returning('id').executeTakeFirstOrThrow();
  await db.updateTable('user_department_roles').set({ department_id: other.id }).where('user_id', '=', c.userId).execute();
  owner = { userId: a.userId, token: await k.login('tsvc-owner', 'Owner-Passw0rd!') };
  colleague = { userId: b.userId };
  outsider = { userId: c.userId };
  const made = await k.call('POST', '/api/term/library/add', owner.token, { name: 'IT', ownership: 'department', kind: 'shared', users: [], isDefault: true });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  baseId = made.body.data.id;
  for (const t of [
    { source: 'hard disk', target: 'disco duro' },
    { source: 'disk', target: 'disco' },
    { source: 'computer', target: 'computador', forbidden: true },
  ]) {
    const added = await k.call('POST', '/api/term/entry/add', owner.token, { libraryId: baseId, sourceLang: 'en', targetLang: 'es', ...t });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
  }
}, 180_000);

afterAll(async () => {
  await k?.shutdown();
});

describe('term.bases', () => {
  it('recognises the terms of a segment: place, term, translation, forbidden flag, term base', async () => {
    const text = 'Copy the Hard Disk of the computer.';
    const { termBases, hits } = await terms.recognise({ caller: { userId: owner.userId }, sourceLang: 'en', targetLang: 'es', text });
    // None named: the owner's default.
    expect(termBases).toEqual([baseId]);
    expect(hits).toEqual([
      expect.objectContaining({ start: 9, end: 18, text: 'Hard Disk', source: 'hard disk', target: 'disco duro', forbidden: false, termBaseId: baseId }),
      expect.objectContaining({ start: 26, end: 34, text: 'computer', source: 'computer', target: 'computador', forbidden: true, termBaseId: baseId }),
    ]);
    expect(text.slice(hits[0]!.start, hits[0]!.end)).toBe('Hard Disk');
  });

  it('recognises 500 segments in one call with the same few reads as 5', async () => {
    const segments = Array.from({ length: 500 }, (_, n) => (n % 2 ? `Disk ${n} is full.` : `Nothing here ${n}.`));
    const ask = (s: string[]) => terms.recogniseMany({ caller: { userId: owner.userId }, termBases: [baseId], sourceLang: 'en', targetLang: 'es', segments: s });
    await ask(segments.slice(0, 1)); // the matcher is built on first use
    const five = await termQueries(() => ask(segments.slice(0, 5)));
    const batch = await termQueries(() => ask(segments));
    expect(batch.result.segments).toHaveLength(500);
    batch.result.segments.forEach((hits, n) => expect(hits.map((h) => h.target)).toEqual(n % 2 ? ['disco'] : []));
    // The rights, once: the matchers are in memory.
    expect(batch.queries).toBe(1);
    expect(batch.queries).toBe(five.queries);
  });

  it('refuses a term base the user may not use (403) or that does not exist (404), in both languages, and bad input (400)', async () => {
    const forbidden = await refusal(terms.recognise({ caller: { userId: outsider.userId }, termBases: [baseId], sourceLang: 'en', targetLang: 'es', text: 'hard disk' }));
    expect(forbidden.code).toBe(403);
    expect(forbidden.messages).toEqual({ 'zh-CN': `权限不足：您不能使用术语库 ${baseId}`, 'en-US': `Insufficient permission: you may not use term base ${baseId}` });
    expect((await refusal(terms.recogniseMany({ caller: { userId: outsider.userId }, termBases: [baseId], sourceLang: 'en', targetLang: 'es', segments: ['hard disk'] }))).code).toBe(403);
    expect((await refusal(terms.recognise({ caller: { userId: owner.userId }, termBases: [999_999], sourceLang: 'en', targetLang: 'es', text: 'x' }))).code).toBe(404);
    // The outsider's own defaults hold none of these terms.
    expect(await terms.recognise({ caller: { userId: outsider.userId }, sourceLang: 'en', targetLang: 'es', text: 'hard disk' })).toEqual({ termBases: [], hits: [] });
    // The department's colleague uses the department's term base (the department read from the directory).
    expect((await terms.recognise({ caller: { userId: colleague.userId }, termBases: [baseId], sourceLang: 'en', targetLang: 'es', text: 'hard disk' })).hits).toHaveLength(1);
    const bad = await refusal(terms.recogniseMany({ caller: { userId: owner.userId }, sourceLang: 'en', targetLang: 'es', segments: 'hard disk' as never }));
    expect(bad.code).toBe(400);
    expect(bad.messages?.['en-US']).toContain('segments');
    expect(bad.messages?.['zh-CN']).toContain('segments');
    expect((await refusal(terms.recognise({ caller: { userId: 0 }, sourceLang: 'en', targetLang: 'es', text: 'x' }))).code).toBe(400);
  });
});
