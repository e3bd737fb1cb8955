import type { Kysely } from 'kysely';
import type { KernelTables } from '../db/schema.js';
import { DEFAULT_API_TRANSLATION_CAP, DEFAULT_TEXT_TRANSLATION_CAP, fromEngineHtml, needsHtml, toEngineHtml, withoutPlaceholders } from '@linguaport/sdk/shared';
import {
  ApiError,
  languageName,
  type DetectedLanguage,
  type EngineService,
  type EngineTranslateRequest,
  type EngineTranslateResult,
  type Logger,
  type TranslateSegmentsRequest,
  type TranslateSegmentsResult,
} from '@linguaport/sdk/server';
import type { HookRegistry } from './hooks.js';
import type { NodeSupervisor } from './node-supervisor.js';
import { translateText, translateUnits, type SegmentEngine } from './pipeline.js';
import type { TranslationRouter } from './router.js';
import { languageDetector, type LanguageDetector } from './text-tools.js';
import { countCharacters, readNumberSetting, UsageLedger } from './usage.js';

/**
 * The request front of the translation service: what every translation goes through before and
 * after the engines. It checks the request, the channel's caps (the text cap per request, the API
 * cap per day), tells the source language when it is `auto`, runs the pipeline (hooks, then the
 * router's engine stage) under a whole-request deadline, and counts the characters on the usage
 * ledger (written off the request path).
 */

export interface RequestFrontOptions {
  db: Kysely<KernelTables>;
  logger: Logger;
  now: () => Date;
  /** System configuration reader (caps); null values fall back to the defaults. */
  readSetting: (key: string) => Promise<string | null>;
  /** Whole-request deadline: a translation never waits longer than this. */
  deadlineMs: number;
  supervisor: NodeSupervisor;
  router: TranslationRouter;
  hooks: HookRegistry;
}

/**
 * A request from the kernel's own LibreTranslate API: `admitted` is its key's validity check, run
 * beside the engine (lt-access.ts, partyEarly). Nothing is counted or answered before it resolves; a
 * rejection fails the request uncounted. Kernel-only: plugins see EngineTranslateRequest.
 */
export type FrontTranslateRequest = EngineTranslateRequest & { admitted?: Promise<void> };

export type RequestFront = Pick<EngineService, 'translate' | 'translateSegments' | 'detect' | 'languages' | 'choices' | 'recordUsage'> & {
  /** Writes the usage counted so far (at close). */
  flushUsage(): Promise<void>;
};

export function createRequestFront(options: RequestFrontOptions): RequestFront {
  const { supervisor, router, hooks, now, deadlineMs } = options;
  const usage = new UsageLedger(options.db, (err) => options.logger.error('usage record not written', { error: err.message }));
  let detector: Promise<LanguageDetector> | null = null;

  const deadline = (signal?: AbortSignal) => (signal ? AbortSignal.any([signal, AbortSignal.timeout(deadlineMs)]) : AbortSignal.timeout(deadlineMs));

  /** Checks the caps of the channel for `characters` more; throws 400/429 with the reason. */
  async function checkCaps(callerId: number, channel: EngineTranslateRequest['channel'], characters: number): Promise<void> {
    if (channel === 'text') {
      const cap = await readNumberSetting(options.readSetting, 'TEXT_TRANSLATION_CAP', DEFAULT_TEXT_TRANSLATION_CAP);
      if (characters > cap) throw new ApiError(400, `The text has ${characters} characters; the cap for text translation is ${cap}`);
    } else if (channel === 'api') {
      const cap = await readNumberSetting(options.readSetting, 'API_TRANSLATION_CAP', DEFAULT_API_TRANSLATION_CAP);
      const used = await usage.today(callerId, 'api', now());
      if (used + characters > cap) throw new ApiError(429, `API character cap reached: ${used} of ${cap} characters used today, this request has ${characters}`);
    }
  }

  async function languages() {
    await supervisor.ensureStarted();
    return router.languages();
  }

  async function detect(text: string): Promise<DetectedLanguage> {
    const served = await languages();
    detector ??= languageDetector();
    const found = (await detector).detect(text, served.map((l) => l.code));
    const targets = served.find((l) => l.code === found.language)?.targets ?? [];
    return { ...found, translatable: targets.length > 0, targets };
  }

  /** The source language: as asked, or detected from the text when `auto` (400 when it cannot be told or no engine takes it). */
  async function sourceOf(asked: string, text: string): Promise<{ source: string; detected?: DetectedLanguage }> {
    if (asked && asked !== 'auto') return { source: asked };
    const detected = await detect(text);
    if (detected.language === 'unknown') throw new ApiError(400, 'Could not detect the source language; choose it');
    // Told apart from "too short": the text is fine, no engine takes its language.
    if (!detected.translatable) throw new ApiError(400, `No engine translates from ${languageName(detected.language)}`, { reason: 'noEngineForSource', language: detected.language });
    return { source: detected.language, detected };
  }

  /** One text: cut into sentence segments by the pipeline; same-language requests come back as sent. */
  async function translate(request: FrontTranslateRequest): Promise<EngineTranslateResult> {
    // The front can wait on caps, start-up or detection, or fail before it awaits the key check: a
    // refusal arriving meanwhile is read later (or by the caller), never an unhandled rejection.
    request.admitted?.catch(() => {});
    const format = request.format ?? 'text';
    if (typeof request.text !== 'string' || request.text.trim() === '') throw new ApiError(400, 'The source text is required');
    if (!request.target) throw new ApiError(400, 'The target language is required');
    const characters = countCharacters(request.text, format);
    await checkCaps(request.callerId, request.channel, characters);
    await supervisor.ensureStarted();
    const { source, detected } = await sourceOf(request.source, request.text);
    if (source === request.target) {
      await request.admitted;
      usage.add(request.callerId, request.channel, characters, 0, now());
      return { text: request.text, source, target: request.target, detected, characters, engineId: 0, nodeId: 0 };
    }
    if (request.engineId !== undefined) router.checkChosenEngine(request.engineId, source, request.target, request.domain);
    const signal = deadline(request.signal);
    const engine = router.route(source, request.target, request.domain, signal, request.engineId);
    const party = { callerId: request.callerId, channel: request.channel, resources: request.resources };
    const result = await translateText({ text: request.text, source, target: request.target, format, domain: request.domain, ...party }, { route: engine, hooks: hooks.list(), signal });
    await request.admitted;
    usage.add(request.callerId, request.channel, characters, 0, now());
    return { text: result.text, source, target: request.target, detected, characters, ...engine.used(), segments: result.segments.map(({ id, source: s, target, origin, issues }) => ({ id, source: s, target, origin, issues })) };
  }

  /** Units in, units out (documents, CAT): blank units and same-language requests come back unchanged. */
  async function translateSegments(request: TranslateSegmentsRequest): Promise<TranslateSegmentsResult> {
    const tagged = request.format === 'placeholders';
    // Placeholders are text to the hooks (as memories hold them); only the engine sees them as html.
    const format: 'text' | 'html' = request.format === 'html' ? 'html' : 'text';
    if (!Array.isArray(request.segments) || request.segments.length === 0) throw new ApiError(400, 'No segments to translate');
    if (!request.target) throw new ApiError(400, 'The target language is required');
    const ids = new Set<string>();
    for (const s of request.segments) {
      if (!s || typeof s.id !== 'string' || typeof s.source !== 'string') throw new ApiError(400, 'Each segment needs a string id and source');
      if (ids.has(s.id)) throw new ApiError(400, `Segment id ${s.id} is given twice`);
      ids.add(s.id);
    }
    let characters = 0;
    for (const s of request.segments) characters += countCharacters(tagged ? withoutPlaceholders(s.source) : s.source, format);
    await checkCaps(request.callerId, request.channel, characters);
    await supervisor.ensureStarted();
    const { source } = await sourceOf(request.source, request.segments.map((s) => s.source).join('\n').slice(0, 2000));
    // Segments with nothing to translate, or a same-language request, come back as sent.
    const blank = (s: { source: string }) => s.source.trim() === '';
    const work = source === request.target ? [] : request.segments.filter((s) => !blank(s));
    const out = new Map<string, TranslateSegmentsResult['segments'][number]>();
    if (source !== request.target && request.engineId !== undefined) router.checkChosenEngine(request.engineId, source, request.target, request.domain);
    if (work.length) {
      const signal = deadline(request.signal);
      const engine = router.route(source, request.target, request.domain, signal, request.engineId);
      const result = await translateUnits(work, { source, target: request.target, format, domain: request.domain, callerId: request.callerId, channel: request.channel, resources: request.resources }, { route: tagged ? placeholdersAsHtml(engine) : engine, hooks: hooks.list(), signal });
      for (const s of result.segments) out.set(s.id, { id: s.id, source: s.source, target: s.target, origin: s.origin, issues: s.issues });
    }
    usage.add(request.callerId, request.channel, characters, 0, now());
    return {
      source,
      target: request.target,
      characters,
      segments: request.segments.map((s) => out.get(s.id) ?? { id: s.id, source: s.source, target: s.source, origin: { kind: 'unchanged' }, issues: [] }),
    };
  }

  return {
    translate,
    translateSegments,
    detect,
    languages,
    async choices(request) {
      await supervisor.ensureStarted();
      return router.choices(request);
    },
    async recordUsage(userId, channel, characters, documents = 0) {
      usage.add(userId, channel, characters, documents, now());
      await usage.flush();
    },
    flushUsage: () => usage.flush(),
  };
}

/**
 * The engine stage for segments with inline placeholders: a batch holding any travels as html (each
 * placeholder an inline element the engine keeps with its words) and comes back as placeholders; a
 * batch without (a term's bare phrase) goes as it came.
 */
function placeholdersAsHtml(engine: SegmentEngine): SegmentEngine {
  return {
    async translate(batch, signal) {
      if (batch.format !== 'text' || !batch.segments.some(needsHtml)) return engine.translate(batch, signal);
      const out = await engine.translate({ ...batch, format: 'html', segments: batch.segments.map(toEngineHtml) }, signal);
      // A malformed answer is left for the pipeline's own check to refuse.
      return Array.isArray(out.targets) ? { ...out, targets: out.targets.map((t) => (typeof t === 'string' ? fromEngineHtml(t) : t)) } : out;
    },
  };
}
