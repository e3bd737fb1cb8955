import {
  ANY_LANGUAGE,
  ApiError,
  EngineError,
  type Logger,
  type OcrRecognizeResult,
  type OcrService,
  type SpeakerAdapter,
  type SpeakerService,
  type SpeechService,
  type SpeechTranscribeResult,
} from '@linguaport/sdk/server';
import type { AdapterRegistry } from './adapters.js';
import { createCapabilityRouter, sameLanguage, type CapabilityMessages, type CapabilityNodeRow, type RecognitionCapability } from './capability-routing.js';
import type { NodeRuntime } from './node-runtime.js';
import type { NodeSupervisor } from './node-supervisor.js';

/**
 * The recognition services on the nodes that recognise rather than translate: speech
 * (`ctx.engines.speech`), text in pictures (`ocr`) and speakers (`speaker`). Each checks its
 * input (400 in both languages) and runs on a node of its capability through the capability
 * router (capability-routing.ts: least busy healthy node for the language, fail-over).
 */

export interface RecognitionServices {
  speech: SpeechService;
  ocr: OcrService;
  speaker: SpeakerService;
}

export interface RecognitionOptions {
  supervisor: NodeSupervisor;
  adapters: AdapterRegistry;
  logger: Logger;
}

const MESSAGES: Record<RecognitionCapability, CapabilityMessages> = {
  speech: {
    label: 'speech',
    node: { 'zh-CN': '语音识别节点', 'en-US': 'speech recognition node' },
    noEngine: (name) => ({ 'zh-CN': `没有能识别 ${name} 语音的语音引擎`, 'en-US': `No speech engine recognises ${name}` }),
    refused: (detail) => ({ 'zh-CN': `语音引擎无法识别此音频：${detail}`, 'en-US': `The speech engine could not recognise this audio: ${detail}` }),
    interrupted: { 'zh-CN': '服务中断：目前没有可用的语音识别节点，请稍后再试', 'en-US': 'Service interrupted: no speech recognition node is available right now. Try again later.' },
  },
  ocr: {
    label: 'OCR',
    node: { 'zh-CN': '文字识别节点', 'en-US': 'OCR node' },
    noEngine: (name) => ({ 'zh-CN': `没有能识别 ${name} 文字的文字识别引擎`, 'en-US': `No OCR engine reads ${name}` }),
    refused: (detail) => ({ 'zh-CN': `文字识别引擎无法读取此图片：${detail}`, 'en-US': `The OCR engine could not read this picture: ${detail}` }),
    interrupted: { 'zh-CN': '服务中断：目前没有可用的文字识别节点，请稍后再试', 'en-US': 'Service interrupted: no OCR node is available right now. Try again later.' },
  },
  speaker: {
    label: 'speaker',
    node: { 'zh-CN': '说话人识别节点', 'en-US': 'speaker recognition node' },
    noEngine: () => ({ 'zh-CN': '没有说话人识别引擎', 'en-US': 'There is no speaker recognition engine' }),
    refused: (detail) => ({ 'zh-CN': `说话人识别引擎无法处理此音频：${detail}`, 'en-US': `The speaker recognition engine could not handle this audio: ${detail}` }),
    interrupted: { 'zh-CN': '服务中断：目前没有可用的说话人识别节点，请稍后再试', 'en-US': 'Service interrupted: no speaker recognition node is available right now. Try again later.' },
  },
};

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
  const routerFor = (capability: RecognitionCapability) =>
    createCapabilityRouter({
      capability,
      runtimes: () => supervisor.runtimes.values(),
      rows: () => [...supervisor.nodes.values()].map((n) => [n.id, { name: n.container_name ?? '', kind: n.kind, running: n.desired_state === 'running', capability: adapters.get(n.kind)?.definition.capability }] as [number, CapabilityNodeRow]),
      languagesOf: (id: number) => supervisor.runtimes.get(id)?.languages ?? supervisor.nodeLanguages.get(id) ?? [],
      failed: (node: NodeRuntime, reason: string) => supervisor.saveHealth(node.spec.id, 'unhealthy', reason),
      logger,
      messages: MESSAGES[capability],
    });
  const speechRouter = routerFor('speech');
  const ocrRouter = routerFor('ocr');
  const speakerRouter = routerFor('speaker');

  const speech: SpeechService = {
    async languages() {
      await ready();
      return speechRouter.languages();
    },
    async nodes(language) {
      await ready();
      return speechRouter.choices(language);
    },
    async transcribe(request): Promise<SpeechTranscribeResult> {
      if (!(request.audio instanceof Uint8Array) || request.audio.byteLength <= 44) throw noAudio();
      if (!request.language) throw new ApiError(400, { 'zh-CN': '需要指定语音的语言', 'en-US': 'The language of the speech is required' });
      await ready();
      const { value: segments, node } = await speechRouter.run(request, (pick) => pick.speech!.transcribe(request.audio, { language: request.language, signal: request.signal }));
      return { language: request.language, segments, nodeId: node.spec.id, kind: node.spec.kind };
    },
  };

  /** Runs on a speaker node of the request's method (any language); a node of another method is skipped as one that does not take the request. */
  async function onSpeakerNode<T>(request: { method?: string; nodeId?: number; signal?: AbortSignal }, work: (adapter: SpeakerAdapter) => Promise<T>) {
    await ready();
    const { value, node } = await speakerRouter.run({ language: ANY_LANGUAGE, nodeId: request.nodeId, signal: request.signal }, async (pick) => {
      const adapter = pick.speaker!;
      if (request.method && adapter.method !== request.method) throw new EngineError('unsupported-pair', `${adapter.kind} makes ${adapter.method}, not ${request.method}`);
      return work(adapter);
    });
    const threshold = node.speaker!.threshold;
    return { value, answer: { method: node.speaker!.method, nodeId: node.spec.id, kind: node.spec.kind, ...(threshold === undefined ? {} : { threshold }) } };
  }

  const speaker: SpeakerService = {
    async nodes() {
      await ready();
      const byId = new Map(speakerRouter.nodes().map((r) => [r.spec.id, r.speaker!]));
      return speakerRouter.choices().map((c) => {
        const adapter = byId.get(c.id);
        if (!adapter) return c;
        return { ...c, method: adapter.method, ...(adapter.threshold === undefined ? {} : { threshold: adapter.threshold }) };
      });
    },
    async method() {
      await ready();
      return speakerRouter.nodes().sort((a, b) => a.inFlight - b.inFlight)[0]?.speaker?.method ?? null;
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
      return ocrRouter.languages();
    },
    async recognize(request): Promise<OcrRecognizeResult> {
      if (!(request.image instanceof Uint8Array) || request.image.byteLength === 0) throw new ApiError(400, { 'zh-CN': '没有可识别的图片', 'en-US': 'There is no picture to read' });
      const wanted = Array.isArray(request.languages) ? request.languages.filter((l) => typeof l === 'string' && l) : [];
      if (!wanted.length) throw new ApiError(400, { 'zh-CN': '需要指定图片文字的语言', 'en-US': 'The language of the text in the picture is required' });
      await ready();
      const { value: page, node } = await ocrRouter.run({ language: wanted[0]!, signal: request.signal }, (pick) => {
        // The main language and those of the others this node reads too.
        const langs = wanted.filter((l, i) => i === 0 || (pick.languages ?? []).some((k) => sameLanguage(k, l)));
        return pick.ocr!.recognize(request.image, { languages: langs, signal: request.signal }).then((p) => ({ ...p, languages: langs }));
      });
      return { ...page, nodeId: node.spec.id, kind: node.spec.kind };
    },
  };

  return { speech, ocr, speaker };
}
