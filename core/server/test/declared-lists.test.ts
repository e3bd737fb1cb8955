// Database: none
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseManifest } from '@linguaport/sdk/shared';
import type { EventBus } from '@linguaport/sdk/server';
import { createApp, type KernelApp } from '../src/http/app.js';
import { declaredLists, withUsageChannels } from '../src/plugins/declared-lists.js';
import { readDeploymentSet } from '../src/plugins/deployment.js';
import { createMessageCenter } from '../src/system/messages.js';

const root = join(import.meta.dirname, '..', '..', '..');
const manifest = (id: string, extra: object) => parseManifest({ id, version: '1.0.0', name: { 'zh-CN': id, 'en-US': id }, sdk: '^1.0.0', i18n: ['x'], ...extra });
const repository = () => declaredLists(readDeploymentSet(join(root, 'registry.json')).filter((p) => p.enabled).map((p) => p.manifest));

describe('lists the plugins extend from their manifests', () => {
  it("keeps the spec's message types and API key scopes with the repository's plugins", () => {
    const lists = repository();
    expect(new Set(lists.messageTypes.words.map((w) => w.word))).toEqual(new Set(['check', 'proofreading', 'feedback', 'alert', 'cat']));
    expect(lists.messageTypes.words.find((w) => w.word === 'check')).toMatchObject({ name: { 'zh-CN': '审核', 'en-US': 'Review' }, plugin: expect.any(String) });
    expect(new Set(lists.apiKeyScopes.words.map((w) => w.word))).toEqual(new Set(['translate', 'textTools', 'history']));
    expect(lists.apiKeyScopes.usableBy('text-tools')).toEqual(new Set(['translate', 'textTools']));
  });

  it("reads the words from the manifests: a plugin's new message type and scope appear, the kernel's come first", () => {
    const lists = declaredLists([manifest('review-desk', { messageTypes: [{ type: 'deadline', name: { 'zh-CN': '截止', 'en-US': 'Deadline' } }], apiKeyScopes: [{ scope: 'reviews', name: { 'zh-CN': '审校接口', 'en-US': 'Reviews API' } }] })]);
    expect(lists.messageTypes.words.map((w) => w.word)).toEqual(['proofreading', 'alert', 'cat', 'deadline']);
    expect(lists.apiKeyScopes.words.map((w) => w.word)).toEqual(['translate', 'reviews']);
    expect(lists.apiKeyScopes.usableBy('other')).toEqual(new Set(['translate']));
  });

  it('refuses a message of a type the sending plugin does not declare, in both languages', async () => {
    const lists = declaredLists([manifest('feedback', { messageTypes: [{ type: 'feedback', name: { 'zh-CN': '反馈', 'en-US': 'Feedback' } }] }), manifest('tm', { messageTypes: [{ type: 'check', name: { 'zh-CN': '审核', 'en-US': 'Review' } }] })]);
    // The type is checked before anything is read or written: no database is needed to see the refusal.
    const center = createMessageCenter(null as never, null as unknown as EventBus, () => new Date(), lists.messageTypes);
    const refused = center.forPlugin('feedback').send({ userIds: [1], type: 'check', content: 'x' });
    await expect(refused).rejects.toMatchObject({ code: 400, message: expect.stringContaining('Invalid message type check; one of proofreading, alert, cat, feedback') });
    await expect(refused).rejects.toMatchObject({ messages: { 'zh-CN': expect.stringContaining('无效的消息类型 check') } });
  });
});

describe('API key scopes on routes', () => {
  let kernel: KernelApp | null = null;
  afterEach(async () => {
    await kernel?.app.close();
    kernel = null;
  });

  it("takes a route naming the kernel's scope or one its manifest declares, and refuses any other", async () => {
    kernel = await createApp({ logLevel: 'silent', resolveCaller: async () => null });
    const owner = { pluginId: 'text-tools', declaredPermissions: new Set<string>(), apiKeyScopes: new Set(['textTools']) };
    const route = (url: string, apiKey: string) => ({ method: 'GET' as const, url, access: 'signed-in' as const, apiKey, handler: () => null });
    kernel.registerRoute(route('/a', 'translate'), owner);
    kernel.registerRoute(route('/b', 'textTools'), owner);
    expect(() => kernel!.registerRoute(route('/c', 'history'), owner)).toThrow(/plugin text-tools route GET \/c: apiKey "history" is neither the kernel's scope nor one the plugin's manifest declares under apiKeyScopes \(translate, textTools\)/);
    expect(() => kernel!.registerRoute(route('/d', 'textTools'), { pluginId: 'other', declaredPermissions: new Set<string>() })).toThrow(/apiKey "textTools" is neither/);
  });
});

it('the repository manifests parse with the new lists', () => {
  for (const id of ['text-tools', 'trans-text', 'tm', 'term', 'corpus', 'feedback']) parseManifest(JSON.parse(readFileSync(join(root, 'plugins', id, 'plugin.json'), 'utf8')));
});

describe('usage channels', () => {
  const engines = () => {
    const seen: string[] = [];
    return {
      seen,
      service: {
        translate: async (r: { channel: string }) => (seen.push(`translate ${r.channel}`), { text: 'x' }),
        translateSegments: async (r: { channel: string }) => (seen.push(`segments ${r.channel}`), { segments: [] }),
        recordUsage: async (_u: number, channel: string) => void seen.push(`usage ${channel}`),
        split: (text: string) => [text],
      },
    };
  };

  it("lets a plugin count only under the kernel's channels and those its manifest declares", async () => {
    const lists = declaredLists([manifest('trans-file', { usageChannels: [{ channel: 'document', name: { 'zh-CN': '文档', 'en-US': 'Documents' } }] })]);
    expect(lists.usageChannels.words.map((w) => w.word)).toEqual(['text', 'api', 'document']);
    const { seen, service } = engines();
    const mine = withUsageChannels(service as never, 'trans-file', lists.usageChannels.usableBy('trans-file')) as typeof service;
    await mine.recordUsage(1, 'document');
    await mine.translateSegments({ channel: 'text' });
    expect(mine.split('a b')).toEqual(['a b']);
    const other = withUsageChannels(service as never, 'trans-video', lists.usageChannels.usableBy('trans-video')) as typeof service;
    expect(() => other.recordUsage(1, 'document')).toThrow(/plugin trans-video counts usage under channel "document", which is neither the kernel's nor one its manifest declares under usageChannels \(text, api\)/);
    expect(() => other.translate({ channel: 'speech' })).toThrow(/channel "speech"/);
    expect(seen).toEqual(['usage document', 'segments text']);
  });

  it('the repository declares the spec channels: text and api by the kernel, document by the document areas', () => {
    const lists = repository();
    expect(lists.usageChannels.words.map((w) => [w.word, w.plugin])).toEqual([['text', null], ['api', null], ['document', 'trans-file']]);
    expect(lists.usageChannels.usableBy('trans-video').has('document')).toBe(true);
  });
});
