import type { TranslationChannel } from './index.js';

/**
 * The translate pipeline's extension points. Every translation of the platform (text, the public API,
 * documents, CAT) goes through the same stages, in this order:
 *
 *   segment (per language and format, the kernel)
 *   beforeEngine     memory matches, tag protection: a hook may fill a segment's target (it then skips the engine)
 *   terms            the terms the engine must honour for the remaining segments
 *   engine           routing by pair and domain, fail-over (the kernel)
 *   afterEngine      term checks, QA: a hook may rewrite targets and add issues
 *   afterTranslation memory write-back, statistics: sees the result, changes nothing
 *
 * Within a stage, hooks run by `order` (lower first), then in the order they were registered.
 */
export const PIPELINE_STAGES = ['beforeEngine', 'terms', 'afterEngine', 'afterTranslation'] as const;
export type PipelineStage = (typeof PIPELINE_STAGES)[number];

/** Where a segment's translation came from. */
export type SegmentOrigin =
  | { kind: 'engine'; engineId: number; nodeId: number }
  | { kind: 'hook'; hook: string; /** e.g. a memory match's score, 0..100 */ score?: number; ref?: string }
  /** Source and target language are the same, or the segment holds nothing to translate. */
  | { kind: 'unchanged' };

export interface SegmentIssue {
  hook: string;
  severity: 'info' | 'warning' | 'error';
  /** A stable code (`term-missing`, `tag-lost`): consoles show it in their own language from the code and `params`. */
  code: string;
  /** The same in words, both languages, for API clients and logs. */
  message: string;
  /** The values the code's text names (`{ term: 'hard disk', target: 'disco duro' }`). */
  params?: Readonly<Record<string, string>>;
}

export interface PipelineSegment {
  /** The caller's id for the segment (units of a file); `1`, `2`... for plain text. */
  readonly id: string;
  readonly source: string;
  target?: string;
  origin?: SegmentOrigin;
  issues: SegmentIssue[];
}

export interface TermRequirement {
  source: string;
  target: string;
}

/**
 * The resources a request asks for by id (term bases, memories), as the area that owns them names
 * them; hooks read their own key (`resources.termBases`, `resources.memories`). Who may use a
 * resource is the hook's to check, with `callerId`. A key left out means the caller's defaults; an
 * empty list means none (a picker left empty on purpose).
 */
export type TranslationResources = Readonly<Record<string, readonly (number | string)[] | undefined>>;

export interface PipelineContext {
  readonly source: string;
  readonly target: string;
  readonly format: 'text' | 'html';
  readonly domain?: string;
  readonly callerId: number;
  readonly channel: TranslationChannel;
  readonly resources: TranslationResources;
  /** Required terms passed with every engine batch; the `terms` stage adds to it. */
  terms: TermRequirement[];
  /** Translations the term bases forbid (`source` must not come out as `target`): engines that can, avoid them. */
  avoidTerms: TermRequirement[];
  /**
   * The engine's own translation of bare phrases (a term's source alone: no hooks, no terms, not
   * counted), from the engine that serves this request: a hook finds that rendering in the output and
   * puts the term in its place. Absent where no engine serves the request.
   */
  readonly renderPhrases?: (phrases: string[]) => Promise<string[]>;
  readonly signal?: AbortSignal;
}

export interface TranslateHook {
  /** Unique within its plugin; shown in a segment's origin and issues. */
  name: string;
  order?: number;
  beforeEngine?(segments: PipelineSegment[], ctx: PipelineContext): void | Promise<void>;
  terms?(segments: PipelineSegment[], ctx: PipelineContext): void | Promise<void>;
  afterEngine?(segments: Required<PipelineSegment>[], ctx: PipelineContext): void | Promise<void>;
  afterTranslation?(segments: readonly Readonly<Required<PipelineSegment>>[], ctx: PipelineContext): void | Promise<void>;
  /**
   * Refuses (ApiError: 404 unknown, 403 not usable) a resource of the hook's own key that the caller
   * may not use. Asked through `ctx.pipeline.checkResources` when a choice of resources is saved for
   * later work (a document upload, a saved configuration), so the refusal comes then, not when the job runs.
   */
  checkResources?(resources: TranslationResources, callerId: number): void | Promise<void>;
}

/** What every translation request says besides its text: languages, format, who asks, with what. */
export interface TranslationRequestBase {
  /** A platform code, or `auto` to detect it. */
  source: string;
  target: string;
  format?: 'text' | 'html';
  domain?: string;
  /** The user the characters are counted for. */
  callerId: number;
  channel: TranslationChannel;
  /** Term bases, memories... by the key of the area that owns them; read by that area's pipeline hooks. */
  resources?: TranslationResources;
  /**
   * The engine (its id) that must serve the request: only its nodes are tried (fail-over among them).
   * 400 when it does not exist, is disabled or expired, or does not translate the pair (for the
   * domain): the same engines automatic routing could use, nothing more. Without it, routing picks.
   */
  engineId?: number;
  signal?: AbortSignal;
}

/** An engine a caller may choose for a pair (`ctx.engines.choices`). */
export interface EngineChoice {
  id: number;
  name: string;
  /** The engine's domain, if it is limited to one. */
  domain: string | null;
  /** A node of it is up and translates the pair right now. */
  ready: boolean;
}

/** Units in, units out: what documents and CAT translate with (text is one case of it). `auto` detects from the segments' text. */
export interface TranslateSegmentsRequest extends Omit<TranslationRequestBase, 'format'> {
  /**
   * `placeholders`: the segments carry inline placeholders (`<1>…</1>`, `<2/>`, a document's tags).
   * Hooks see them as text, as a memory holds them (so a memory's match with tags applies); the
   * engine gets a batch holding any as html (the SDK's `toEngineHtml`) and its answer comes back
   * as placeholders (`fromEngineHtml`). Usage counts the text without them.
   */
  format?: 'text' | 'html' | 'placeholders';
  segments: { id: string; source: string }[];
}

export interface TranslateSegmentsResult {
  source: string;
  target: string;
  segments: Array<{ id: string; source: string; target: string; origin: SegmentOrigin; issues: SegmentIssue[] }>;
  /** Characters counted for the caller. */
  characters: number;
}

/** `ctx.pipeline`: a plugin's hooks into every translation. */
export interface TranslationPipeline {
  /** Adds a hook; the returned function removes it (a plugin's hooks also go when it stops). */
  register(hook: TranslateHook): () => void;
  /**
   * Every hook's `checkResources` over the resources a caller chose: throws the first refusal. Call it
   * before anything is stored, wherever resources are chosen for later work.
   */
  checkResources(callerId: number, resources: TranslationResources): Promise<void>;
}
