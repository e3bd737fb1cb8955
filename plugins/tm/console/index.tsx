import { useEffect, useState } from 'react';
import { Button, Card, H5, HTMLTable, InputGroup, Intent, Tag } from '@blueprintjs/core';
import { definePlugin, FormDialog, LanguageVariantPicker, ResourceEntries, ResourceHistory, ResourceLibraryScreen, TaggedText, useApi, useLanguageOptions, useNotify, usePermission, useTranslation, type ResourceEntry, type ResourceLibrary, type SlotViewProps } from '@linguaport/sdk/console';

/** A memory as `/TM/library/list` gives it. */
interface Memory extends ResourceLibrary {
  createdAt: string;
}
export interface Entry extends ResourceEntry {
  quality: number | null;
  /** Notes of the entry's TMX unit and its sides, and what else the unit said (tuid, dates, usage, props). */
  notes?: string[];
  metadata?: EntryMetadata;
}
interface SideMetadata {
  attrs?: Record<string, string>;
  props?: Array<{ type: string; value: string; lang?: string }>;
  notes?: string[];
}
interface EntryMetadata extends SideMetadata {
  tuid?: string;
  source?: SideMetadata;
  target?: SideMetadata;
}
function Concordance({ memoryId }: { memoryId: number }) {
  const { t } = useTranslation();
  const api = useApi();
  const [q, setQ] = useState('');
  const [hits, setHits] = useState<{ entryId: number; source: string; target: string; sourceHighlights: [number, number][]; targetHighlights: [number, number][] }[] | null>(null);
  const mark = (text: string, ranges: [number, number][]) => {
    const out: React.ReactNode[] = [];
    let at = 0;
    for (const [a, b] of ranges) {
      out.push(text.slice(at, a), <mark key={a}>{text.slice(a, b)}</mark>);
      at = b;
    }
    out.push(text.slice(at));
    return out;
  };
  return (
    <Card data-testid="tm-concordance">
      <H5>{t('concordance')}</H5>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (q.trim()) void api.get<{ entries: NonNullable<typeof hits> }>('/TM/concordance', { params: { libraryIds: String(memoryId), q }, silent: true }).then((r) => setHits(r.entries), () => setHits([]));
        }}
      >
        <InputGroup leftIcon="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder={t('concordanceHint')} aria-label={t('concordance')} />
      </form>
      {hits && hits.length === 0 && <div style={{ marginTop: 6 }}>{t('noHits')}</div>}
      {hits && hits.length > 0 && (
        <HTMLTable compact style={{ width: '100%' }}>
          <tbody>
            {hits.map((h) => (
              <tr key={h.entryId}>
                <td>{mark(h.source, h.sourceHighlights)}</td>
                <td>{mark(h.target, h.targetHighlights)}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </Card>
  );
}

/** The selected entry's notes and what its TMX unit said (tuid, dates, usage, props), as imported and exported. */
export function EntryDetails({ entry }: { entry: Entry }) {
  const { t } = useTranslation();
  const m = entry.metadata ?? {};
  const rows: Array<[string, string]> = [];
  if (m.tuid) rows.push(['tuid', m.tuid]);
  const sides: Array<[string, SideMetadata | undefined]> = [[t('entryUnit'), m], [t('source'), m.source], [t('target'), m.target]];
  for (const [label, side] of sides) {
    for (const [k, v] of Object.entries(side?.attrs ?? {})) rows.push([`${label} · ${k}`, v]);
    for (const p of side?.props ?? []) rows.push([`${label} · ${p.type}${p.lang ? ` (${p.lang})` : ''}`, p.value]);
  }
  const notes = entry.notes ?? [];
  if (!notes.length && !rows.length) return null;
  return (
    <Card data-testid="tm-entry-details">
      <H5>{t('entryDetails')}</H5>
      {notes.length > 0 && (
        <ul data-testid="tm-entry-notes" style={{ margin: '0 0 8px', paddingLeft: 18 }}>
          {notes.map((n, i) => (
            <li key={i} style={{ whiteSpace: 'pre-wrap' }}>{n}</li>
          ))}
        </ul>
      )}
      {rows.length > 0 && (
        <HTMLTable compact>
          <tbody>
            {rows.map(([k, v], i) => (
              <tr key={i}>
                <td style={{ color: '#5f6b7c' }}>{k}</td>
                <td>{v}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </Card>
  );
}


/** The match thresholds of text and document translation: the button in the memory bar and its dialog. */
function MatchSettings() {
  const { t } = useTranslation();
  const api = useApi();
  const notify = useNotify();
  const perms = usePermission();
  // The thresholds being edited (null: the dialog is closed).
  const [settings, setSettings] = useState<{ showThreshold: number; autoUseThreshold: number; variantPenalty: number } | null>(null);
  const open = async () => setSettings(await api.get<{ showThreshold: number; autoUseThreshold: number; variantPenalty: number }>('/TM/settings'));
  if (!perms.hasButton('tm:settings')) return null;
  return (
    <>
      <Button icon="settings" minimal text={t('matchSettings')} onClick={() => void open()} data-testid="tm-settings" />
      <FormDialog
        isOpen={!!settings}
        title={t('matchSettings')}
        fields={[
          { name: 'showThreshold', label: t('showThreshold'), type: 'number', required: true, helperText: t('showThresholdHelp') },
          { name: 'autoUseThreshold', label: t('autoUseThreshold'), type: 'number', required: true, helperText: t('autoUseThresholdHelp') },
          { name: 'variantPenalty', label: t('variantPenaltySetting'), type: 'number', required: true, helperText: t('variantPenaltyHelp') },
        ]}
        initialValues={settings ?? undefined}
        onSubmit={async (v) => {
          await api.put('/TM/settings', { showThreshold: Number(v.showThreshold), autoUseThreshold: Number(v.autoUseThreshold), variantPenalty: Number(v.variantPenalty) }, { silent: true });
          setSettings(null);
          notify.success(t('matchSettingsSaved'));
        }}
        onClose={() => setSettings(null)}
      />
    </>
  );
}

/** `/TM`: the memories the user may use, and the chosen one's entries, import, export and concordance. */
function Memories() {
  const { t } = useTranslation();
  const languages = useLanguageOptions();
  return (
    <ResourceLibraryScreen<Memory>
      base="/TM"
      area="tm"
      libraryTestWord="memory"
      icon="database"
      texts={{ add: t('addMemory'), edit: t('editMemory'), delete: t('deleteMemory'), deleteMessage: (m) => t('deleteMemoryMessage', { name: m.name, count: m.entries }), none: t('noMemories'), noneHelp: t('noMemoriesHelp'), noneAsk: t('noMemoriesAsk') }}
      tools={<MatchSettings />}
      entries={(memory, screen) => (
        <ResourceEntries<Entry>
          base="/TM"
          area="tm"
          library={memory}
          {...screen}
          columns={(c) => [
            // Placeholders of imported or document entries as the editors' chips, not raw `<1>`.
            { key: 'source', title: t('source'), sortable: true, width: 320, render: (r) => <TaggedText text={r.source} /> },
            { key: 'target', title: t('target'), sortable: true, width: 320, render: (r) => <TaggedText text={r.target} /> },
            c.direction,
            c.status,
            c.enabled,
            c.createdAt,
            // The translator's notes kept from the TMX file (all of them in the details below the grid).
            { key: 'notes', title: t('notes'), width: 220, render: (r) => (r.notes?.length ? <span title={r.notes.join('\n')}>{r.notes.join(' · ')}</span> : '') },
          ]}
          // A language with its variant (en-GB, zh-Hans-CN): the language from the list, the region or script typed.
          fields={(isNew) =>
            (['sourceLang', 'targetLang'] as const).map((name) => ({
              name,
              label: t(name),
              type: 'custom' as const,
              required: true,
              disabled: !isNew,
              render: (value: unknown, setValue: (v: unknown) => void) => <LanguageVariantPicker aria-label={t(name)} value={String(value ?? '')} languages={languages} disabled={!isNew} onChange={setValue} data-testid={`tm-entry-${name}`} />,
            }))
          }
          newEntry={{ sourceLang: 'en', targetLang: 'es' }}
          exports={[
            { format: 'tmx', text: 'TMX', testId: 'tm-export-tmx' },
            { format: 'xlsx', text: 'XLSX' },
            { format: 'xliff12', text: 'XLIFF 1.2', title: t('exportXliffHelp'), testId: 'tm-export-xliff12', label: 'XLIFF 1.2', extension: 'xlf' },
            { format: 'xliff21', text: 'XLIFF 2.1', title: t('exportXliffHelp'), testId: 'tm-export-xliff21', label: 'XLIFF 2.1', extension: 'xliff2.xlf' },
          ]}
          details={(selected) => selected.length === 1 && <EntryDetails entry={selected[0]!} />}
        />
      )}
      importCard={{
        accept: ['.tmx', '.xlf', '.xliff', '.po', '.txt', '.xls', '.xlsx'],
        languages,
        defaultLanguages: { sourceLang: 'en', targetLang: 'es' },
        // A memory keeps language variants: en-US to en-GB is a memory of its own.
        variants: true,
        help: t('importHelp'),
        reportText: (r) => t('importReport', { imported: r.imported, rejected: r.rejected }),
      }}
      below={(memory) => <Concordance memoryId={memory.id} />}
    />
  );
}

/** `/TMHistory`: who did what to which entry, with the entry before and after. */
function MemoryHistory() {
  const { t } = useTranslation();
  return <ResourceHistory<Entry> base="/TM" area="tm" chooseLabel={t('title')} />;
}

/** What text translation gives its side panel (the shape its manifest's slot describes). */
interface PanelProps {
  text: string;
  source: string;
  target: string;
  segments: Array<{ id: string; source: string; target: string; origin: { kind: string; hook?: string; score?: number } }>;
  /** The memories the translation used (absent: the user's defaults; empty: none). */
  resources?: { memories?: number[] };
  onInsert?(segmentId: string, target: string, origin: { kind: string; hook?: string; score?: number }): void;
}

/**
 * Beside a text translation: which sentences came from a memory (exact matches), and the best fuzzy
 * matches of the others in the user's default memories, with their scores.
 */
function MemoryMatchesPanel({ props }: SlotViewProps<PanelProps>) {
  const { t } = useTranslation();
  const api = useApi();
  const [fuzzy, setFuzzy] = useState<Record<string, { score: number; source: string; target: string; targetLang?: string; penalty?: number; notes?: string[] }[]>>({});
  const chosen = props.resources?.memories;
  // No memory chosen: nothing to look up.
  const open = chosen && chosen.length === 0 ? [] : props.segments.filter((s) => s.origin.hook !== 'tm' && s.source.trim()).slice(0, 5);
  const key = `${props.source}|${props.target}|${chosen?.join(',') ?? ''}|${open.map((s) => s.source).join('|')}`;
  useEffect(() => {
    let live = true;
    void Promise.all(
      open.map((s) =>
        api
          .get<{ matches: { score: number; source: string; target: string; targetLang?: string; penalty?: number; notes?: string[] }[] }>('/TM/match', { params: { sourceLang: props.source, targetLang: props.target, text: s.source.trim(), limit: 3, ...(chosen?.length ? { libraryIds: chosen.join(',') } : {}) }, silent: true })
          .then((r) => [s.id, r.matches] as const, () => [s.id, []] as const),
      ),
    ).then((pairs) => live && setFuzzy(Object.fromEntries(pairs)));
    return () => {
      live = false;
    };
    // The key holds everything the lookups depend on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, key]);
  const exact = props.segments.filter((s) => s.origin.hook === 'tm');
  const found = Object.values(fuzzy).some((m) => m.length > 0);
  if (!exact.length && !found) return null;
  return (
    <Card data-testid="tm-panel">
      <H5>{t('panelTitle')}</H5>
      {exact.map((s) => (
        <div key={s.id}>
          <Tag intent={Intent.SUCCESS} minimal>{s.origin.score ?? 100}%</Tag> {s.source.trim()} → {s.target.trim()}
        </div>
      ))}
      {open.map((s) =>
        (fuzzy[s.id] ?? []).map((m, i) => (
          <div key={`${s.id}:${i}`} data-testid="tm-panel-match">
            <Tag minimal>{m.score}%</Tag> {m.source} → {m.target}{' '}
            {/* From another variant of the language (en-US for en-GB): which, and the points it cost. */}
            {!!m.penalty && (
              <Tag minimal intent={Intent.WARNING} data-testid="tm-panel-variant" title={t('variantPenalty', { penalty: m.penalty })}>
                {m.targetLang}
              </Tag>
            )}{' '}
            {props.onInsert && <Button small minimal icon="insert" text={t('insertMatch')} data-testid="tm-insert-match" onClick={() => props.onInsert!(s.id, m.target, { kind: 'hook', hook: 'tm', score: m.score })} />}
            {/* The translator's notes kept with the entry (from its TMX unit). */}
            {!!m.notes?.length && (
              <div data-testid="tm-panel-notes" style={{ color: '#5f6b7c', fontSize: 12, whiteSpace: 'pre-wrap' }}>
                {m.notes.join('\n')}
              </div>
            )}
          </div>
        )),
      )}
    </Card>
  );
}

export default definePlugin({ id: 'tm', views: { Memories, MemoryHistory, MemoryMatchesPanel } });
