import {
  ANY_LANGUAGE,
  ApiError,
  EngineError,
  capabilityMessages,
  ocrCapability,
  speakerCapability,
  speechCapability,
  type CapabilityService,
  type EngineCapabilityDefinition,
  type Logger,
  type OcrAdapter,
  type OcrRecognizeResult,
  type OcrService,
  type SpeakerAdapter,
  type SpeakerService,
  type SpeechAdapter,
  type SpeechService,
  type SpeechTranscribeResult,
} from '@linguaport/sdk/server';
import type { AdapterRegistry } from './adapters.js';
import { createCapabilityRouter, sameLanguage, type CapabilityNodeRow, type CapabilityRouter } from './capability-routing.js';
import type { NodeRuntime } from './node-runtime.js';
import type { NodeSupervisor } from './node-supervisor.js';

/**
 * The services on the nodes of capabilities routed by language: any registered one through
 * `ctx.engines.capability(id)`, and the SDK's typed services over the declarations it ships, speech
 * (`ctx.engines.speech`), text in pictures (`ocr`) and speakers (`speaker`). Each checks its input
 * (400 in both languages) and runs on a node of its capability through the capability router
 * (capability-routing.ts: least busy healthy node for the language, fail-over).
 */

export interface RecognitionServices {
  speech: SpeechService;
  ocr: OcrService;
  speaker: SpeakerService;
  /** Routing on the nodes of a registered capability routed by language (404 for an unknown id). */
  capability<A>(id: string): CapabilityService<A>;
}

export interface RecognitionOptions {
  supervisor: NodeSupervisor;
  adapters: AdapterRegistry;
  logger: Logger;
}

const isWav = (a: unknown) => a instanceof Uint8Array && a.byteLength > 44;
const noAudio = () => new ApiError(400, { 'zh-CN': '没有可识别的音频', 'en-US': 'There is no audio to recognise' });

function checkRecordings(recordings: unknown): void {
  if (!Array.isArray(recordings) || recordings.length === 0 || !recordings.every(isWav)) throw noAudio();
}

function checkBackground(background: unknown): void {
  if (background !== null && !(background instanceof Uint8Array && background.byteLength > 0)) throw new ApiError(400, { 'zh-CN': '背景模型无效', 'en-US': 'The background model is invalid' });
}

export function createRecognitionServices(options: RecognitionOptions): RecognitionServices {
  const { supervisor, adapters, logger } = options;
  const ready = () => supervisor.ensureStarted();
  /** The router of a capability, with its declaration's messages (the registered one, else the SDK's own for its typed services). */
  const routerFor = (declared: EngineCapabilityDefinition<any>): CapabilityRouter => {
    const capability = adapters.capabilities.get(declared.id) ?? declared;
    return createCapabilityRouter({
      capability: capability.id,
      runtimes: () => supervisor.runtimes.values(),
      rows: () => [...supervisor.nodes.values()].map((n) => [n.id, { name: n.container_name ?? '', kind: n.kind, running: n.desired_state === 'running', capability: adapters.get(n.kind)?.capability.id }] as [number, CapabilityNodeRow]),
      languagesOf: (id: number) => supervisor.runtimes.get(id)?.languages ?? supervisor.nodeLanguages.get(id) ?? [],
      failed: (node: NodeRuntime, reason: string) => supervisor.saveHealth(node.spec.id, 'unhealthy', reason),
      logger,
      messages: { label: capability.id, node: capability.node, ...capabilityMessages(capability) },
    });
  };
  const speech: SpeechService = {
    async languages() {
      await ready();
      return routerFor(speechCapability).languages();
    },
    async nodes(language) {
      await ready();
      return routerFor(speechCapability).choices(language);
    },
    async transcribe(request): Promise<SpeechTranscribeResult> {
      if (!(request.audio instanceof Uint8Array) || request.audio.byteLength <= 44) throw noAudio();
      if (!request.language) throw new ApiError(400, { 'zh-CN': '需要指定语音的语言', 'en-US': 'The language of the speech is required' });
      await ready();
      const { value: segments, node } = await routerFor(speechCapability).run(request, (pick) => (pick.routed as SpeechAdapter).transcribe(request.audio, { language: request.language, signal: request.signal }));
      return { language: request.language, segments, nodeId: node.spec.id, kind: node.spec.kind };
    },
  };

  /** Runs on a speaker node of the request's method (any language); a node of another method is skipped as one that does not take the request. */
  async function onSpeakerNode<T>(request: { method?: string; nodeId?: number; signal?: AbortSignal }, work: (adapter: SpeakerAdapter) => Promise<T>) {
    await ready();
    const { value, node } = await routerFor(speakerCapability).run({ language: ANY_LANGUAGE, nodeId: request.nodeId, signal: request.signal }, async (pick) => {
      const adapter = pick.routed as SpeakerAdapter;
      if (request.method && adapter.method !== request.method) throw new EngineError('unsupported-pair', `${adapter.kind} makes ${adapter.method}, not ${request.method}`);
      return work(adapter);
    });
    const threshold = (node.routed as SpeakerAdapter).threshold;
    return { value, answer: { method: (node.routed as SpeakerAdapter).method, nodeId: node.spec.id, kind: node.spec.kind, ...(threshold === undefined ? {} : { threshold }) } };
  }

  const speaker: SpeakerService = {
    async nodes() {
      await ready();
      const byId = new Map(routerFor(speakerCapability).nodes().map((r) => [r.spec.id, r.routed as SpeakerAdapter]));
      return routerFor(speakerCapability).choices().map((c) => {
        const adapter = byId.get(c.id);
        if (!adapter) return c;
        return { ...c, method: adapter.method, ...(adapter.threshold === undefined ? {} : { threshold: adapter.threshold }) };
      });
    },
    async method() {
      await ready();
      const least = routerFor(speakerCapability).nodes().sort((a, b) => a.inFlight - b.inFlight)[0];
      return (least?.routed as SpeakerAdapter | undefined)?.method ?? null;
    },
    async train(request) {
      checkRecordings(request.recordings);
      const { value, answer } = await onSpeakerNode(request, (a) => a.train(request.recordings, { seed: request.seed, signal: request.signal }));
      return { ...answer, background: value };
    },
    async enrol(request) {
      checkRecordings(request.recordings);
      checkBackground(request.background);
      const { value, answer } = await onSpeakerNode(request, (a) => a.enrol(request.recordings, { background: request.background, signal: request.signal }));
      return { ...answer, representation: value };
    },
    async score(request) {
      if (!isWav(request.recording)) throw noAudio();
      checkBackground(request.background);
      if (!Array.isArray(request.speakers) || !request.speakers.every((r) => r instanceof Uint8Array && r.byteLength > 0)) throw new ApiError(400, { 'zh-CN': '说话人模型无效', 'en-US': 'The speaker representations are invalid' });
      if (request.speakers.length === 0) throw new ApiError(400, { 'zh-CN': '没有可比对的说话人', 'en-US': 'There are no speakers to compare with' });
      const { value, answer } = await onSpeakerNode(request, async (a) => {
        const scored = await a.score(request.recording, request.speakers, { background: request.background, signal: request.signal });
        if (scored.scores.length !== request.speakers.length || !scored.scores.every(Number.isFinite)) throw new EngineError('bad-response', `${a.kind} answered ${scored.scores.length} scores for ${request.speakers.length} speakers`);
        return scored;
      });
      return { ...answer, ...value };
    },
  };

  const ocr: OcrService = {
    async languages() {
      await ready();
      return routerFor(ocrCapability).languages();
    },
    async recognize(request): Promise<OcrRecognizeResult> {
      if (!(request.image instanceof Uint8Array) || request.image.byteLength === 0) throw new ApiError(400, { 'zh-CN': '没有可识别的图片', 'en-US': 'There is no picture to read' });
      const wanted = Array.isArray(request.languages) ? request.languages.filter((l) => typeof l === 'string' && l) : [];
      if (!wanted.length) throw new ApiError(400, { 'zh-CN': '需要指定图片文字的语言', 'en-US': 'The language of the text in the picture is required' });
      await ready();
      const { value: page, node } = await routerFor(ocrCapability).run({ language: wanted[0]!, signal: request.signal }, (pick) => {
        // The main language and those of the others this node reads too.
        const langs = wanted.filter((l, i) => i === 0 || (pick.languages ?? []).some((k) => sameLanguage(k, l)));
        return (pick.routed as OcrAdapter).recognize(request.image, { languages: langs, signal: request.signal }).then((p) => ({ ...p, languages: langs }));
      });
      return { ...page, nodeId: node.spec.id, kind: node.spec.kind };
    },
  };

  /** Any registered capability routed by language: its nodes, and a request run on the best of them. */
  function capability<A>(id: string): CapabilityService<A> {
    const declared = () => {
      const found = adapters.capabilities.get(id);
      if (!found || found.routing !== 'language') throw new ApiError(404, { 'zh-CN': `没有名为 ${id} 的按语言路由的引擎能力`, 'en-US': `No engine capability routed by language is named ${id}` }, { reason: 'noSuchCapability', capability: id });
      return found;
    };
    return {
      async languages() {
        const router = routerFor(declared());
        await ready();
        return router.languages();
      },
      async nodes(language) {
        const router = routerFor(declared());
        await ready();
        return router.choices(language);
      },
      async run(request, work) {
        const router = routerFor(declared());
        if (typeof request?.language !== 'string' || !request.language) throw new ApiError(400, { 'zh-CN': '需要指定语言', 'en-US': 'The language is required' });
        await ready();
        const { value, node } = await router.run(request, (pick) => work(pick.routed as A, { id: pick.spec.id, kind: pick.spec.kind, languages: [...(pick.languages ?? [])] }));
        return { value, nodeId: node.spec.id, kind: node.spec.kind };
      },
    };
  }

  return { speech, ocr, speaker, capability };
}
