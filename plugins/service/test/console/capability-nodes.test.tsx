// @vitest-environment happy-dom
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PlatformServices } from '@linguaport/sdk/console';
import { prepareConsoleTests, renderView, unmountViews, settle } from '@linguaport/sdk/testing/console';
import { CapabilityNodes } from '../../console/index.js';
import en from '../../locales/en-US.json';
import zh from '../../locales/zh-CN.json';

// The engines page draws a card per capability a plugin declared (issue 24): its title, help and
// icon come from the declaration, its nodes from `<capability>Nodes`; nothing on the page lists
// capabilities by name.
beforeAll(() => prepareConsoleTests({ 'en-US': en, 'zh-CN': zh }));
afterEach(unmountViews);

const tts = {
  id: 'tts',
  name: { 'zh-CN': '语音合成', 'en-US': 'Text to speech' },
  routing: 'language' as const,
  console: { title: { 'zh-CN': '语音合成节点', 'en-US': 'Text-to-speech nodes' }, icon: 'volume-up' },
};
const kind = { kind: 'tts-fixture', name: { 'zh-CN': '测试语音合成', 'en-US': 'Fixture speech synthesis' }, capability: 'tts', local: false, schema: {}, secrets: [], fields: {} };

async function show(lng: string, nodes: unknown[]) {
  await i18next.changeLanguage(lng);
  const get = vi.fn(async () => nodes);
  const services = { api: { get }, notify: { error: vi.fn(), success: vi.fn() }, permissions: { hasButton: () => true }, namespaces: ['service'], pluginId: 'service' } as unknown as PlatformServices;
  await renderView(<CapabilityNodes capability={tts} kinds={[kind]} />, services);
  await settle();
  return { card: document.querySelector('[data-testid="tts-nodes"]')!, get };
}

describe('CapabilityNodes', () => {
  it('titles the card from the declaration and lists the nodes of `<id>Nodes`', async () => {
    const node = { id: 7, kind: 'tts-fixture', containerName: 'tts-en', ip: null, baseUrl: null, running: true, health: 'healthy', lastError: null, pairs: [], languages: ['en'] };
    const { card, get } = await show('en-US', [node]);
    expect(get).toHaveBeenCalledWith('/translServiceNode/ttsNodes', expect.anything());
    expect(card.querySelector('h4')!.textContent).toBe('Text-to-speech nodes');
    expect(card.querySelector('[data-testid="tts-node-7"]')!.textContent).toContain('Fixture speech synthesis');
    expect(card.querySelector('[data-testid="add-tts-node"]')!.textContent).toBe('Add node');
  });

  it('says in the console language that there is no node yet', async () => {
    const { card } = await show('zh-CN', []);
    expect(card.querySelector('h4')!.textContent).toBe('语音合成节点');
    expect(card.textContent).toContain('语音合成节点：还没有节点');
  });
});
