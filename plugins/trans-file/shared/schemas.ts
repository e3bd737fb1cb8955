import { z } from 'zod';
import { documentFile, pdfConversion, previewStatus, idNumberSchema, idSchema, resourceIdsSchema } from '@linguaport/sdk/shared';

/**
 * The document area's shapes, shared by the server (validation) and the console (forms, lists).
 * States are the SDK's machines (`documentFile`, `previewStatus`, `pdfConversion`), never redefined here.
 */

export type FileStatus = (typeof documentFile.states)[number];
export type PreviewStatus = (typeof previewStatus.states)[number];
export type PdfStatus = (typeof pdfConversion.states)[number];

/** What the user gets back: the document translated, each paragraph followed by its translation, or a two-column table. */
export const RESULT_TYPES = ['translated', 'bilingual', 'table'] as const;
export type ResultType = (typeof RESULT_TYPES)[number];

const languageCode = z.string().trim().min(2, 'validation.required').max(20);
/** Ids of term bases or memories (the SDK's rule for every upload form). */
const resourceIds = resourceIdsSchema;

/**
 * What happens to translations a bilingual file (PO, XLIFF) already holds: `keepUsable` (the default)
 * translates only units without a usable target (none, or a draft: fuzzy, needs-*, XLIFF 2 initial);
 * `keepApproved` keeps only reviewed and signed-off targets; `keepAll` keeps every target, drafts too;
 * `retranslate` translates every unit. The stages are the SDK's `TargetStage`.
 */
export const EXISTING_TARGETS = ['keepUsable', 'keepApproved', 'keepAll', 'retranslate'] as const;
export type ExistingTargets = (typeof EXISTING_TARGETS)[number];

const flag = z.union([z.boolean(), z.enum(['true', 'false', '1', '0', 'on', ''])]).optional().transform((v) => v === true || v === 'true' || v === '1' || v === 'on');

/** The options of an upload (multipart fields beside the files), also what a retry may change. */
export const translateOptionsSchema = z.object({
  sourceLang: languageCode,
  targetLang: languageCode,
  domain: z.string().trim().max(64).optional().transform((v) => (v ? v : null)),
  termBases: resourceIds,
  memories: resourceIds,
  resultType: z.enum(RESULT_TYPES).default('translated'),
  withPdf: flag,
  existingTargets: z.enum(EXISTING_TARGETS).default('keepUsable'),
});
export type TranslateOptions = z.output<typeof translateOptionsSchema>;

/** The list's filters and paging (`GET /transFile/list`). */
export const fileListQuerySchema = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(10),
  name: z.string().trim().max(200).optional(),
  status: z.enum(documentFile.states as readonly FileStatus[] as [FileStatus, ...FileStatus[]]).optional(),
  sourceLang: z.string().trim().max(20).optional(),
  targetLang: z.string().trim().max(20).optional(),
  /** Manager variant: every user's files (needs transFile:manage). */
  all: flag,
  /** Manager variant: one owner's files. */
  ownerId: idSchema.optional(),
  jobId: idSchema.optional(),
});
export type FileListQuery = z.output<typeof fileListQuerySchema>;

/** The area's settings an administrator changes (`PUT /transFile/settings`). */
export const settingsSchema = z.object({
  /** Files in one upload. */
  maxFiles: z.coerce.number().int().min(1).max(200),
  /** Megabytes per file. */
  maxFileMb: z.coerce.number().int().min(1).max(1024),
  /** Files waiting or translating at once, all users together; one more answers "queue full". */
  queueLength: z.coerce.number().int().min(1).max(100_000),
  /** Each user's storage, in megabytes, unless a quota of their own is set. */
  defaultQuotaMb: z.coerce.number().int().min(1).max(1_048_576),
});
export type Settings = z.output<typeof settingsSchema>;

export const DEFAULT_SETTINGS: Settings = { maxFiles: 20, maxFileMb: 50, queueLength: 500, defaultQuotaMb: 2048 };

const stateEnum = <T extends string>(states: readonly T[]) => z.enum(states as unknown as [T, ...T[]]);

/** One row of the file list (also what upload, get, retry and terminate answer). */
export const fileRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  size: z.number().int(),
  format: z.string(),
  ownerId: z.number().int(),
  ownerName: z.string().nullable(),
  jobId: z.number().int().nullable().describe('The archive translation the document belongs to'),
  sourceLang: z.string(),
  targetLang: z.string(),
  domain: z.string().nullable(),
  termBases: z.array(z.number().int()),
  memories: z.array(z.number().int()),
  resultType: z.enum(RESULT_TYPES),
  bilingual: z.boolean(),
  withPdf: z.boolean(),
  status: stateEnum<FileStatus>(documentFile.states),
  previewStatus: stateEnum<PreviewStatus>(previewStatus.states),
  pdfStatus: stateEnum<PdfStatus>(pdfConversion.states).nullable(),
  characters: z.number().int(),
  segments: z.number().int(),
  segmentsDone: z.number().int(),
  percent: z.number().int().min(0).max(100),
  error: z.string().nullable(),
  resultName: z.string().nullable(),
  /** Text recognised from page images (a scanned PDF): /fileViewOCR shows it over the pages. */
  ocr: z.boolean().describe('Text recognised from page images (a scanned PDF)'),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type FileRow = z.infer<typeof fileRowSchema>;

/** What `transFile.changed` carries: a file's state and progress, to the owner and the managers. */
/** A file's pushed state; it carries the result's name too, which a download made from a live row is saved under. */
export type FileChanged = Pick<FileRow, 'id' | 'ownerId' | 'status' | 'previewStatus' | 'pdfStatus' | 'segments' | 'segmentsDone' | 'percent' | 'characters' | 'error' | 'resultName'> & { deleted?: boolean };

export const FILE_CHANGED = 'transFile.changed';

/** One paragraph of a file with its translation (the preview). */
/** A pipeline hook's finding on a sentence (term warnings...), worded in the reader's language by the SDK's `issueText`. */
export const unitIssueSchema = z.object({ code: z.string(), severity: z.enum(['info', 'warning', 'error']), message: z.string(), params: z.record(z.string(), z.string()).optional() });
export const unitSentenceSchema = z.object({ source: z.string(), target: z.string(), origin: z.string(), issues: z.array(unitIssueSchema).optional() });
export type UnitSentence = z.infer<typeof unitSentenceSchema>;

export const unitRowSchema = z.object({
  idx: z.number().int(),
  source: z.string(),
  target: z.string().nullable(),
  origin: z.string().nullable(),
  edited: z.boolean(),
  part: z.string().nullable(),
  /**
   * A paragraph of several sentences as it was translated: each sentence with its translation and
   * origin (`tm:<score>`, `engine:<name>`…); null for a paragraph of one sentence, and once edited.
   */
  sentences: z.array(unitSentenceSchema).nullable(),
});
export type UnitRow = z.infer<typeof unitRowSchema>;

export const unitEditSchema = z.object({
  target: z.string().max(100_000).refine((s) => s.trim() !== '', 'validation.required'),
});
