// @vitest-environment happy-dom
import i18next from 'i18next';
import { act, type ReactElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PlatformContext, preloadUiKit, type PlatformServices } from '@linguaport/sdk/console';
import plugin, { EntryDetails, type Entry } from '../../console/index.js';
import en from '../../locales/en-US.json';
import zh from '../../locales/zh-CN.json';

// The memory's entry view shows what an entry kept from its TMX unit (issue 23 item 3): every note, the
// tuid, dates, usage and props, in the console's language.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
let root: Root | null = null;

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': en, 'zh-CN': zh }, interpolation: { escapeValue: false } });
  await preloadUiKit();
});
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
});

const entry: Entry = {
  id: 7,
  source: 'Press Save.',
  target: 'Drücken Sie Speichern.',
  sourceLang: 'en-US',
  targetLang: 'de-DE',
  status: 'unchecked',
  enabled: true,
  quality: null,
  createdAt: '2026-11-28T12:00:00.000Z',
  notes: ['Keep the formal register.', 'Checked by the legal team.'],
  metadata: { tuid: 'legal-0001', attrs: { usagecount: '7', changedate: '20210506T070809Z' }, props: [{ type: 'x-domain', value: 'Legal' }], notes: ['Keep the formal register.'], target: { notes: ['Checked by the legal team.'], attrs: { changeid: 'BORIS' } } },
};

async function show(lng: string, e: Entry) {
  await i18next.changeLanguage(lng);
  const services = { api: {}, notify: { error: vi.fn() }, namespaces: ['tm'], pluginId: 'tm' } as unknown as PlatformServices;
  const host = document.createElement('div');
  document.body.appendChild(host);
  root = createRoot(host);
  await act(async () => root!.render(<PlatformContext.Provider value={services}><EntryDetails entry={e} /></PlatformContext.Provider>));
  return document.querySelector('[data-testid="tm-entry-details"]');
}

describe('EntryDetails', () => {
  it("shows the entry's notes and its TMX unit's tuid, attributes and props", async () => {
    const card = (await show('en-US', entry))!;
    expect([...card.querySelectorAll('[data-testid="tm-entry-notes"] li')].map((li) => li.textContent)).toEqual(['Keep the formal register.', 'Checked by the legal team.']);
    const text = card.textContent!;
    expect(text).toContain('Notes and TMX details');
    for (const s of ['tuidlegal-0001', 'Unit · usagecount7', 'Unit · x-domainLegal', 'Translation · changeidBORIS']) expect(text).toContain(s);
    act(() => root?.unmount());
    document.body.innerHTML = '';
    expect((await show('zh-CN', entry))!.textContent).toContain('备注与 TMX 信息');
  });

  it('shows nothing for an entry without notes or metadata', async () => {
    expect(await show('en-US', { ...entry, notes: [], metadata: {} })).toBeNull();
  });

  it('shows the notes of each memory match beside the translation, for the translator', async () => {
    const Panel = (plugin as unknown as { views: Record<string, (p: { props: unknown }) => ReactElement> }).views.MemoryMatchesPanel!;
    const get = vi.fn(async () => ({ matches: [{ score: 92, source: 'Press Save now.', target: 'Drücken Sie jetzt Speichern.', notes: ['Keep the formal register.', 'Checked by the legal team.'] }] }));
    const services = { api: { get }, notify: { error: vi.fn() }, namespaces: ['tm'], pluginId: 'tm' } as unknown as PlatformServices;
    const host = document.createElement('div');
    document.body.appendChild(host);
    root = createRoot(host);
    const segments = [{ id: '1', source: 'Press Save.', origin: { kind: 'engine' }, issues: [] }];
    await act(async () => root!.render(<PlatformContext.Provider value={services}><Panel props={{ text: 'Press Save.', source: 'en-US', target: 'de-DE', segments }} /></PlatformContext.Provider>));
    await act(async () => void (await new Promise((r) => setTimeout(r, 0))));
    expect(document.querySelector('[data-testid="tm-panel-notes"]')?.textContent).toBe('Keep the formal register.\nChecked by the legal team.');
  });
});
