import type { EngineService } from '@linguaport/sdk/server';
import { KERNEL_API_KEY_SCOPES, type Locale, type PluginManifest } from '@linguaport/sdk/shared';

type LocalizedText = Readonly<Record<Locale, string>>;

/**
 * The kernel's lists that plugins extend from their manifests (API key scopes, message types, usage
 * channels): the kernel's own words first, then each enabled plugin's, each word once. A plugin
 * uses only the kernel's words and those its own manifest declares.
 */
export interface DeclaredWord {
  word: string;
  name: LocalizedText;
  /** The declaring plugin; null for the kernel's own. */
  plugin: string | null;
}

export interface DeclaredList {
  readonly words: readonly DeclaredWord[];
  has(word: string): boolean;
  /** The words `pluginId` may use: the kernel's and its own manifest's. */
  usableBy(pluginId: string | null): ReadonlySet<string>;
}

export function declaredList(kernel: readonly { word: string; name: LocalizedText }[], plugins: readonly { id: string; words: readonly { word: string; name: LocalizedText }[] }[]): DeclaredList {
  const words: DeclaredWord[] = kernel.map((k) => ({ ...k, plugin: null }));
  const own = new Map<string, Set<string>>();
  for (const p of plugins) {
    own.set(p.id, new Set(p.words.map((w) => w.word)));
    for (const w of p.words) if (!words.some((x) => x.word === w.word)) words.push({ ...w, plugin: p.id });
  }
  const kernelWords = new Set(kernel.map((k) => k.word));
  const all = new Set(words.map((w) => w.word));
  return {
    words,
    has: (word) => all.has(word),
    usableBy: (pluginId) => new Set([...kernelWords, ...(pluginId ? (own.get(pluginId) ?? []) : [])]),
  };
}

/** Message types the kernel keeps: spec 02 section 3's types whose areas this deployment does not build yet, and its own alert. */
export const KERNEL_MESSAGE_TYPES = [
  { word: 'proofreading', name: { 'zh-CN': '校对', 'en-US': 'Proofreading' } },
  { word: 'alert', name: { 'zh-CN': '提醒', 'en-US': 'Alert' } },
  { word: 'cat', name: { 'zh-CN': '辅助翻译', 'en-US': 'CAT' } },
];

/** The usage channels of the kernel's own translation API (`/api/lt`: with a key, and the keyless web page's text). */
export const KERNEL_USAGE_CHANNELS = [
  { word: 'text', name: { 'zh-CN': '文本', 'en-US': 'Text' } },
  { word: 'api', name: { 'zh-CN': '接口', 'en-US': 'API' } },
];

/**
 * A plugin's `ctx.engines`, counting usage only under the channels it may use (the kernel's and its
 * manifest's `usageChannels`): a translation or a usage record under another channel is refused.
 */
export function withUsageChannels<T extends Pick<EngineService, 'translate' | 'translateSegments' | 'recordUsage'>>(engines: T, pluginId: string, allowed: ReadonlySet<string>): T {
  const check = (channel: string) => {
    if (!allowed.has(channel)) throw new Error(`plugin ${pluginId} counts usage under channel ${JSON.stringify(channel)}, which is neither the kernel's nor one its manifest declares under usageChannels (${[...allowed].join(', ')})`);
  };
  // Delegates everything else to the service as it is (methods and getters alike).
  const guarded = Object.create(engines) as T;
  guarded.translate = (request) => (check(request.channel), engines.translate(request));
  guarded.translateSegments = (request) => (check(request.channel), engines.translateSegments(request));
  guarded.recordUsage = (userId, channel, ...rest) => (check(channel), engines.recordUsage(userId, channel, ...rest));
  return guarded;
}

export interface DeclaredLists {
  apiKeyScopes: DeclaredList;
  messageTypes: DeclaredList;
  usageChannels: DeclaredList;
}

/** The lists of the kernel and the given (enabled) plugins' manifests. */
export function declaredLists(manifests: readonly Pick<PluginManifest, 'id' | 'apiKeyScopes' | 'messageTypes' | 'usageChannels'>[]): DeclaredLists {
  return {
    apiKeyScopes: declaredList(
      KERNEL_API_KEY_SCOPES.map((s) => ({ word: s.scope, name: s.name })),
      manifests.map((m) => ({ id: m.id, words: m.apiKeyScopes.map((s) => ({ word: s.scope, name: s.name })) })),
    ),
    messageTypes: declaredList(KERNEL_MESSAGE_TYPES, manifests.map((m) => ({ id: m.id, words: m.messageTypes.map((s) => ({ word: s.type, name: s.name })) }))),
    usageChannels: declaredList(KERNEL_USAGE_CHANNELS, manifests.map((m) => ({ id: m.id, words: m.usageChannels.map((s) => ({ word: s.channel, name: s.name })) }))),
  };
}
