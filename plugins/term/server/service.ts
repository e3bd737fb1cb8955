import { serviceCallerOf, serviceInput, termRecogniseInputSchema, termRecogniseManyInputSchema, type ServerPluginContext, type TermBaseService } from '@linguaport/sdk/server';
import type { LibraryAccess, LibraryUsageCheck } from '@linguaport/sdk/resources';
import type { TermRecognition } from './recognise.js';

/**
 * `term.bases` (the SDK's `termBaseService`): term recognition for other areas (CAT), with the same
 * matchers as `POST /term/recognise` and the pipeline hook. Each call makes its caller whole from the
 * kernel's user directory and checks the use right on every term base it names.
 */
export function createTermBaseService(o: { ctx: ServerPluginContext; access: LibraryAccess; recognition: TermRecognition; usage: LibraryUsageCheck[] }): TermBaseService {
  const { ctx, access, recognition } = o;
  const termBasesOf = async (input: { caller: { userId: number; departmentId?: number | null }; termBases?: number[] }) =>
    access.forService(await serviceCallerOf(ctx.users, input.caller), input.termBases, 'use');

  return {
    async recognise(raw) {
      const i = serviceInput(termRecogniseInputSchema, raw);
      const termBases = await termBasesOf(i);
      return { termBases, hits: await recognition.recognise(termBases, i.sourceLang, i.targetLang, i.text) };
    },
    async recogniseMany(raw) {
      const i = serviceInput(termRecogniseManyInputSchema, raw);
      const termBases = await termBasesOf(i);
      return { termBases, segments: await recognition.recogniseMany(termBases, i.sourceLang, i.targetLang, i.segments) };
    },
    registerUsage(check) {
      o.usage.push(check);
      return () => void o.usage.splice(o.usage.indexOf(check), 1);
    },
  };
}
