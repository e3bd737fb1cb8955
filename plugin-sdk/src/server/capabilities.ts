import type { EngineHealth } from './engines.js';

/**
 * Engine capabilities: what a kind of engine does (translate, recognise speech, read pictures, ...).
 * A capability is declared, not listed: a plugin registers its declaration
 * (`ctx.engines.registerCapability`, or by naming it as an adapter definition's `capability`), the
 * kernel keeps them in a registry like the adapter kinds, and the node start, health checks,
 * routing and the engines page read the declaration. Nothing in the kernel names a capability.
 *
 * Two ways of routing:
 * - `pairs`: nodes serve engines by language pair (machine translation: `ctx.engines.translate`);
 * - `language`: one request goes to the least busy healthy node of the capability that takes its
 *   language, failing over (speech, OCR, speakers, a text-to-speech plugin's own capability):
 *   `ctx.engines.capability(id).run(...)`. The adapter answers its languages at each health check.
 */

type Localized = { 'zh-CN': string; 'en-US': string };

/** What every adapter of a capability routed by language has: the kernel checks health and learns languages. */
export interface LanguageRoutedAdapter {
  readonly kind: string;
  /** The languages it takes, in platform codes (`*`: any). */
  languages(): Promise<string[]>;
  health(): Promise<EngineHealth>;
}

/** Messages of a capability's routing, in both languages (defaults are made from `node`). */
export interface CapabilityMessages {
  /** 400: no node of the capability takes this language (its English name). */
  noEngine(language: string): Localized;
  /** 400: the node answered, refusing this input. */
  refused(detail: string): Localized;
  /** 503: every node that takes it is down. */
  interrupted: Localized;
}

export interface EngineCapabilityDefinition<A = unknown> {
  /** Lower-case id adapter definitions name (`translate`, `speech`, `tts`). */
  id: string;
  /** The capability, in both locales (`语音识别` / `Speech recognition`). */
  name: Localized;
  /** One node of it, in messages (`语音识别节点` / `speech recognition node`). */
  node: Localized;
  routing: 'pairs' | 'language';
  /** True when `create` made an adapter of this capability's contract. */
  isAdapter(made: unknown): made is A;
  /** The contract's members, for the error when `create` made something else (`languages, health, transcribe`). */
  contract: string;
  /** Routing messages; the defaults say "no <node> takes ...", "the <node> could not handle ...". */
  messages?: Partial<CapabilityMessages>;
  /** The engines page: a card of this capability's nodes (language-routed capabilities only). */
  console?: {
    /** Card title (`语音识别节点` / `Speech recognition nodes`); default: the name. */
    title?: Localized;
    help?: Localized;
    addNode?: Localized;
    noNodes?: Localized;
    /** A Blueprint icon name. */
    icon?: string;
  };
}

/** A registered capability as the engines page reads it (`ctx.engines.capabilities()`). */
export interface EngineCapabilityInfo {
  id: string;
  name: Localized;
  node: Localized;
  routing: 'pairs' | 'language';
  /** The plugins that declared it. */
  plugins: string[];
  console: { title: Localized; help?: Localized; addNode?: Localized; noNodes?: Localized; icon?: string };
}

/** The routing messages of a capability: its own, else made from its node's name. */
export function capabilityMessages(def: Pick<EngineCapabilityDefinition, 'node' | 'messages'>): CapabilityMessages {
  const node = def.node;
  return {
    noEngine: def.messages?.noEngine ?? ((language) => ({ 'zh-CN': `没有能处理 ${language} 的${node['zh-CN']}`, 'en-US': `No ${node['en-US']} takes ${language}` })),
    refused: def.messages?.refused ?? ((detail) => ({ 'zh-CN': `${node['zh-CN']}无法处理此请求：${detail}`, 'en-US': `The ${node['en-US']} could not handle this request: ${detail}` })),
    interrupted: def.messages?.interrupted ?? { 'zh-CN': `服务中断：目前没有可用的${node['zh-CN']}，请稍后再试`, 'en-US': `Service interrupted: no ${node['en-US']} is available right now. Try again later.` },
  };
}

/** A node of a language-routed capability a caller may choose. */
export interface CapabilityNodeChoice {
  id: number;
  name: string;
  kind: string;
  languages: string[];
  /** Running and healthy now. */
  ready: boolean;
}

export interface CapabilityRequest {
  /** The language the node must take (platform code; `*` any node). */
  language: string;
  /** A chosen node: it or 400 (503 when it is down). */
  nodeId?: number;
  signal?: AbortSignal;
}

/** One language-routed capability's nodes and routing (`ctx.engines.capability(id)`). */
export interface CapabilityService<A = unknown> {
  /** Languages some healthy node takes, sorted. */
  languages(): Promise<string[]>;
  /** The nodes left running, with their languages; only those that take `language` when given. */
  nodes(language?: string): Promise<CapabilityNodeChoice[]>;
  /**
   * Runs `work` with the adapter of the least busy healthy node that takes the language, failing over
   * on the node's own failures. 400 (both languages) when no node takes it, 503 when every one is down.
   */
  run<T>(request: CapabilityRequest, work: (adapter: A, node: { id: number; kind: string; languages: string[] }) => Promise<T>): Promise<{ value: T; nodeId: number; kind: string }>;
}
