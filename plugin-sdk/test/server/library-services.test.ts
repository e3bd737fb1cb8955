import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  ApiError,
  MEMORY_LOOKUP_MAX_SEGMENTS,
  memoryConcordanceInputSchema,
  memoryLookupInputSchema,
  memoryService,
  memoryWriteInputSchema,
  serviceCallerOf,
  serviceInput,
  termBaseService,
  termRecogniseManyInputSchema,
  type MemoryLookupResult,
  type MemoryService,
  type MemoryServiceMatch,
  type RecognisedTerm,
  type ServiceToken,
  type TermBaseService,
  type UserDirectory,
} from '../../src/server/index.js';

// The contract of the library services other areas use (`tm.memories`, `term.bases`): tokens, types
// and the input schemas providers check calls with. The providers' own tests run them on a database.

describe('library service tokens', () => {
  it('are the names the manifests provide and consume, typed with their contracts', () => {
    expect(memoryService.name).toBe('tm.memories');
    expect(termBaseService.name).toBe('term.bases');
    expectTypeOf(memoryService).toEqualTypeOf<ServiceToken<MemoryService>>();
    expectTypeOf(termBaseService).toEqualTypeOf<ServiceToken<TermBaseService>>();
  });

  it('types what a consumer sends and gets back', () => {
    // The least a lookup needs: defaults for the rest.
    expectTypeOf<Parameters<MemoryService['lookup']>[0]>().toMatchTypeOf<{ caller: { userId: number }; sourceLang: string; targetLang: string; segments: string[] }>();
    expectTypeOf<ReturnType<MemoryService['lookup']>>().resolves.toEqualTypeOf<MemoryLookupResult>();
    expectTypeOf<MemoryServiceMatch>().toHaveProperty('createdBy').toEqualTypeOf<number>();
    expectTypeOf<MemoryServiceMatch['reviewState']>().toEqualTypeOf<'unchecked' | 'checked'>();
    expectTypeOf<MemoryServiceMatch['kind']>().toEqualTypeOf<'exact' | 'fuzzy'>();
    expectTypeOf<ReturnType<TermBaseService['recogniseMany']>>().resolves.toHaveProperty('segments').toEqualTypeOf<RecognisedTerm[][]>();
    expectTypeOf<RecognisedTerm>().toMatchTypeOf<{ start: number; end: number; target: string; forbidden: boolean; termBaseId: number }>();
  });
});

describe('library service inputs', () => {
  const caller = { userId: 3 };

  it('fill the defaults and normalise language tags', () => {
    expect(memoryLookupInputSchema.parse({ caller, sourceLang: 'EN-gb', targetLang: 'es', segments: ['a'] })).toMatchObject({ sourceLang: 'en-GB', maxMatches: 5 });
    expect(memoryConcordanceInputSchema.parse({ caller, query: ' rent ' })).toMatchObject({ query: 'rent', side: 'both', pageNum: 1, pageSize: 50 });
    expect(memoryWriteInputSchema.parse({ caller, memoryId: 1, sourceLang: 'en', targetLang: 'es', source: 'Hi there.', target: 'Hola.' })).toMatchObject({ state: 'unchecked' });
  });

  it('refuse what a provider must not run, with a 400 in both languages', () => {
    const refused = (schema: Parameters<typeof serviceInput>[0], input: unknown) => {
      try {
        serviceInput(schema, input);
      } catch (err) {
        expect(err).toBeInstanceOf(ApiError);
        expect((err as ApiError).code).toBe(400);
        return (err as ApiError).messages!;
      }
      throw new Error('accepted');
    };
    const tooMany = refused(memoryLookupInputSchema, { caller, sourceLang: 'en', targetLang: 'es', segments: Array(MEMORY_LOOKUP_MAX_SEGMENTS + 1).fill('a') });
    expect(tooMany['en-US']).toContain('segments');
    expect(tooMany['zh-CN']).toContain('segments');
    const tag = refused(memoryLookupInputSchema, { caller, sourceLang: 'no such tag!', targetLang: 'es', segments: [] });
    expect(tag['en-US']).not.toBe(tag['zh-CN']);
    refused(memoryWriteInputSchema, { caller, memoryId: 1, sourceLang: 'en', targetLang: 'es', source: '123', target: 'x' });
    refused(memoryWriteInputSchema, { caller, memoryId: 1, sourceLang: 'en', targetLang: 'es', source: 'Hi', target: 'x', state: 'failed' });
    refused(termRecogniseManyInputSchema, { caller: { userId: -1 }, sourceLang: 'en', targetLang: 'es', segments: [] });
  });
});

describe('serviceCallerOf', () => {
  const users = {
    membership: async (id: number) => (id === 7 ? { userId: 7, departmentIds: [2, 5], isSuperAdmin: false } : id === 1 ? { userId: 1, departmentIds: [1], isSuperAdmin: true } : null),
  } as unknown as UserDirectory;

  it('reads rights from the directory: the department asked only when the user works there', async () => {
    expect(await serviceCallerOf(users, { userId: 7, departmentId: 5 })).toMatchObject({ userId: 7, departmentId: 5, isSuperAdmin: false });
    expect(await serviceCallerOf(users, { userId: 7, departmentId: 9 })).toMatchObject({ departmentId: 2 });
    expect(await serviceCallerOf(users, { userId: 7 })).toMatchObject({ departmentId: 2 });
    expect(await serviceCallerOf(users, { userId: 1 })).toMatchObject({ isSuperAdmin: true });
    await expect(serviceCallerOf(users, { userId: 99 })).rejects.toMatchObject({ code: 403 });
  });
});
