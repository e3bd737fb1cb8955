import { z } from 'zod';

/**
 * Response schemas of shapes the SDK's services answer and several areas pass on as they are
 * (`ctx.engines.languages()`, `ctx.engines.detect()`, a translation's segments): declared once here
 * so every route that answers them documents (and, in tests, checks) the same shape.
 */

/** One `EngineLanguage`: a source language and the codes it translates into. */
export const engineLanguageSchema = z.object({
  code: z.string(),
  targets: z.array(z.string()).describe('Codes this language translates into through an enabled, healthy engine'),
});

/** A `DetectedLanguage`, as `ctx.engines.detect` answers it. */
export const detectedLanguageSchema = z.object({
  language: z.string().describe("The engines' platform code when one takes it (zh-CN), else ISO 639-1 (de); unknown when unsure"),
  confidence: z.number().min(0).max(1),
  translatable: z.boolean().describe('Whether an enabled, healthy engine translates from it'),
  targets: z.array(z.string()).describe('The codes it translates into'),
});

/** A `SegmentIssue` a pipeline hook found in a segment. */
export const segmentIssueSchema = z.object({
  hook: z.string(),
  severity: z.enum(['info', 'warning', 'error']),
  code: z.string(),
  message: z.string(),
  params: z.record(z.string(), z.string()).optional(),
});

/** Where a segment's translation came from (`SegmentOrigin`). */
export const segmentOriginSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('engine'), engineId: z.number().int(), nodeId: z.number().int() }),
  z.object({ kind: z.literal('hook'), hook: z.string(), score: z.number().optional(), ref: z.string().optional() }),
  z.object({ kind: z.literal('unchanged') }),
]);

/** One segment of a translation (`TranslateSegmentsResult['segments']`): its text, translation, origin and issues. */
export const translatedSegmentSchema = z.object({
  id: z.string(),
  source: z.string(),
  target: z.string(),
  origin: segmentOriginSchema,
  issues: z.array(segmentIssueSchema),
});

/** `{deleted: n}`: how many of the named records a delete call removed. */
export const deletedSchema = z.object({ deleted: z.number().int().min(0) });
