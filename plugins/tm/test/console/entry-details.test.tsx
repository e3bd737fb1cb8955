// @vitest-environment happy-dom
import i18next from 'i18next';
import type { ReactElement } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PlatformServices } from '@linguaport/sdk/console';
import { prepareConsoleTests, renderView, unmountViews, settle } from '@linguaport/sdk/testing/console';
import plugin, { EntryDetails, type Entry } from '../../console/index.js';
import en from '../../locales/en-US.json';
import zh from '../../locales/zh-CN.json';

// The memory's entry view shows what an entry kept from its TMX unit (issue 23 item 3): every note, the
// tuid, dates, usage and props, in the console's language.
beforeAll(() => prepareConsoleTests({ 'en-US': en, 'zh-CN': zh }));
afterEach(unmountViews);

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
  await renderView(<EntryDetails entry={e} />, services);
  return document.querySelector('[data-testid="tm-entry-details"]');
}

describe('EntryDetails', () => {
  it("shows the entry's notes and its TMX unit's tuid, attributes and props", async () => {
    const card = (await show('en-US', entry))!;
    expect([...card.querySelectorAll('[data-testid="tm-entry-notes"] li')].map((li) => li.textContent)).toEqual(['Keep the formal register.', 'Checked by the legal team.']);
    const text = card.textContent!;
    expect(text).toContain('Notes and TMX details');
    for (const s of ['tuidlegal-0001', 'Unit · usagecount7', 'Unit · x-domainLegal', 'Translation · changeidBORIS']) expect(text).toContain(s);
    unmountViews();
    expect((await show('zh-CN', entry))!.textContent).toContain('备注与 TMX 信息');
  });

  it('shows nothing for an entry without notes or metadata', async () => {
    expect(await show('en-US', { ...entry, notes: [], metadata: {} })).toBeNull();
  });

  it('shows the notes of each memory match beside the translation, for the translator', async () => {
    const Panel = (plugin as unknown as { views: Record<string, (p: { props: unknown }) => ReactElement> }).views.MemoryMatchesPanel!;
    const get = vi.fn(async () => ({ matches: [{ score: 92, source: 'Press Save now.', target: 'Drücken Sie jetzt Speichern.', notes: ['Keep the formal register.', 'Checked by the legal team.'] }] }));
    const services = { api: { get }, notify: { error: vi.fn() }, namespaces: ['tm'], pluginId: 'tm' } as unknown as PlatformServices;
    const segments = [{ id: '1', source: 'Press Save.', origin: { kind: 'engine' }, issues: [] }];
    await renderView(<Panel props={{ text: 'Press Save.', source: 'en-US', target: 'de-DE', segments }} />, services);
    await settle();
    expect(document.querySelector('[data-testid="tm-panel-notes"]')?.textContent).toBe('Keep the formal register.\nChecked by the legal team.');
  });
});
