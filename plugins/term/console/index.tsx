import { useEffect, useState } from 'react';
import { Button, Callout, Card, Classes, Dialog, H5, HTMLSelect, HTMLTable, Intent, InputGroup, Spinner, Tag, TextArea } from '@blueprintjs/core';
import { definePlugin, ResourceEntries, ResourceHistory, ResourceLibraryScreen, useApi, useLanguageOptions, useNotify, usePermission, useTranslation, type ApiErrorInfo, type ResourceEntry, type ResourceLibrary, type SlotViewProps } from '@linguaport/sdk/console';
import { issueText } from '@linguaport/sdk/shared';
import { termEntrySchema } from '../shared/schemas.js';

/** A term base as `/term/library/list` gives it. */
interface TermBase extends ResourceLibrary {
  createdAt: string;
}
interface Term extends ResourceEntry {
  forbidden: boolean;
  partOfSpeech: string | null;
  note: string | null;
  domain: string | null;
}
interface Paged<T> {
  records: T[];
  total: number;
}
interface Hit {
  start: number;
  end: number;
  text: string;
  termId: number;
  target: string;
  forbidden: boolean;
}

/** The terms of the chosen term base found in a pasted text, marked where they occur. */
function Recognise({ termBase }: { termBase: TermBase }) {
  const { t } = useTranslation();
  const api = useApi();
  const languages = useLanguageOptions();
  const [text, setText] = useState('');
  const [langs, setLangs] = useState({ sourceLang: 'en', targetLang: 'zh-CN' });
  const [hits, setHits] = useState<Hit[] | null>(null);
  const [shown, setShown] = useState('');
  const run = () =>
    void api.post<{ hits: Hit[] }>('/term/recognise', { text, ...langs, termBaseIds: [termBase.id] }, { silent: true }).then(
      (r) => {
        setShown(text);
        setHits(r.hits);
      },
      () => setHits([]),
    );
  const marked = () => {
    const out: React.ReactNode[] = [];
    let at = 0;
    for (const h of hits ?? []) {
      out.push(shown.slice(at, h.start), <mark key={h.start} title={h.target} style={h.forbidden ? { background: '#fa999c' } : undefined}>{shown.slice(h.start, h.end)}</mark>);
      at = h.end;
    }
    out.push(shown.slice(at));
    return out;
  };
  return (
    <Card data-testid="term-recognise">
      <H5>{t('recognise')}</H5>
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center', marginBottom: 6 }}>
        <HTMLSelect aria-label={t('sourceLang')} value={langs.sourceLang} options={languages} onChange={(e) => setLangs({ ...langs, sourceLang: e.target.value })} />
        →
        <HTMLSelect aria-label={t('targetLang')} value={langs.targetLang} options={languages} onChange={(e) => setLangs({ ...langs, targetLang: e.target.value })} />
        <Button icon="search-text" disabled={!text.trim()} text={t('recogniseNow')} onClick={run} />
      </div>
      <TextArea fill value={text} placeholder={t('recogniseHint')} aria-label={t('recogniseHint')} onChange={(e) => setText(e.target.value)} />
      {hits && hits.length === 0 && <div style={{ marginTop: 6 }}>{t('noHits')}</div>}
      {hits && hits.length > 0 && (
        <>
          <p style={{ marginTop: 6 }}>{marked()}</p>
          <HTMLTable compact style={{ width: '100%' }}>
            <tbody>
              {hits.map((h) => (
                <tr key={`${h.start}:${h.termId}`}>
                  <td>{h.text}</td>
                  <td>{h.target}</td>
                  <td>{h.forbidden && <Tag intent={Intent.DANGER}>{t('forbidden')}</Tag>}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </>
      )}
    </Card>
  );
}


/** `/term`: the term bases the user may use, and the chosen one's terms, import, export and recognition. */
function TermBases() {
  const { t } = useTranslation();
  const languages = useLanguageOptions();
  return (
    <ResourceLibraryScreen<TermBase>
      base="/term"
      area="term"
      libraryTestWord="base"
      icon="book"
      texts={{ add: t('addTermBase'), edit: t('editTermBase'), delete: t('deleteTermBase'), deleteMessage: (b) => t('deleteTermBaseMessage', { name: b.name, count: b.entries }), none: t('noTermBases'), noneHelp: t('noTermBasesHelp'), noneAsk: t('noTermBasesAsk') }}
      entries={(termBase, screen) => (
        <ResourceEntries<Term>
          base="/term"
          area="term"
          library={termBase}
          {...screen}
          columns={(c) => [
            { key: 'source', title: t('source'), sortable: true, width: 220 },
            { key: 'target', title: t('target'), sortable: true, width: 220, render: (r) => (r.forbidden ? <><Tag intent={Intent.DANGER} minimal>{t('forbidden')}</Tag> {r.target}</> : r.target) },
            { ...c.direction, width: 100 },
            { key: 'partOfSpeech', title: t('partOfSpeech'), width: 100, render: (r) => r.partOfSpeech ?? '' },
            { key: 'domain', title: t('domain'), sortable: true, width: 120, render: (r) => r.domain ?? '' },
            c.status,
            c.enabled,
            c.createdAt,
          ]}
          fields={(isNew) => [
            { name: 'sourceLang', label: t('sourceLang'), type: 'select', options: languages, required: true, disabled: !isNew },
            { name: 'targetLang', label: t('targetLang'), type: 'select', options: languages, required: true, disabled: !isNew },
            { name: 'partOfSpeech', label: t('partOfSpeech') },
            { name: 'domain', label: t('domain') },
            { name: 'note', label: t('note'), type: 'textarea' },
            { name: 'forbidden', label: t('forbidden'), type: 'checkbox', helperText: t('forbiddenHelp') },
          ]}
          schema={termEntrySchema}
          newEntry={{ sourceLang: 'en', targetLang: 'zh-CN', forbidden: false }}
          entryBody={(v) => ({ partOfSpeech: (v.partOfSpeech as string) || null, domain: (v.domain as string) || null, note: (v.note as string) || null, forbidden: !!v.forbidden })}
          filters={[
            { name: 'forbidden', label: t('forbidden'), type: 'select', options: [{ value: '', label: t('all') }, { value: 'true', label: t('yes') }, { value: 'false', label: t('no') }] },
            { name: 'domain', label: t('domain') },
          ]}
          exports={[
            { format: 'tbx', text: 'TBX', testId: 'term-export-tbx' },
            { format: 'csv', text: 'CSV' },
            { format: 'xlsx', text: 'XLSX' },
          ]}
        />
      )}
      importCard={{
        accept: ['.tbx', '.csv', '.txt', '.xls', '.xlsx'],
        languages,
        defaultLanguages: { sourceLang: 'en', targetLang: 'zh-CN' },
        help: t('importHelp'),
        reportText: (r) => t('importReport', { imported: r.imported, rejected: r.rejected }),
      }}
      below={(termBase) => <Recognise termBase={termBase} />}
    />
  );
}

/** `/termHistory`: who did what to which term, with the term before and after. */
function TermHistory() {
  const { t } = useTranslation();
  return <ResourceHistory<Term> base="/term" area="term" chooseLabel={t('chooseTermBase')} actionFilter describeExtra={(e) => (e.forbidden ? `, ${t('forbidden')}` : '')} />;
}

interface PanelProps {
  text: string;
  source: string;
  target: string;
  /** The translated sentences with the issues the pipeline's hooks found (ours: term-missing, term-forbidden). */
  segments?: Array<{ id: string; issues: Array<{ hook: string; severity?: string; code: string; message: string; params?: Record<string, string> }> }>;
}


/** Beside a text translation: the terms of the user's default term bases found in the source, with the translation each requires. */
function TermsPanel({ props }: SlotViewProps<PanelProps>) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const [hits, setHits] = useState<Hit[]>([]);
  const key = `${props.source}|${props.target}|${props.text}`;
  useEffect(() => {
    let live = true;
    const load = () =>
      void api.post<{ hits: Hit[] }>('/term/recognise', { text: props.text, sourceLang: props.source, targetLang: props.target }, { silent: true }).then(
        (r) => live && setHits(r.hits),
        () => live && setHits([]),
      );
    load();
    // A term added from the translation screen shows at once.
    window.addEventListener(TERM_ADDED, load);
    return () => {
      live = false;
      window.removeEventListener(TERM_ADDED, load);
    };
    // The key holds everything the lookup depends on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, key]);
  // The term hook's findings on this translation, worded in the console's language from their code.
  const issues = (props.segments ?? []).flatMap((s) => s.issues.filter((i) => i.hook === 'term').map((i, n) => ({ ...i, key: `${s.id}:${n}` })));
  if (!hits.length && !issues.length) return null;
  return (
    <Card data-testid="term-panel">
      <H5>{t('panelTitle')}</H5>
      {hits.map((h) => (
        <div key={`${h.start}:${h.termId}`} data-testid="term-panel-hit">
          {h.text} → {h.target} {h.forbidden && <Tag minimal intent={Intent.DANGER}>{t('forbidden')}</Tag>}
        </div>
      ))}
      {issues.map((i) => (
        <Callout key={i.key} intent={i.severity === 'info' ? Intent.NONE : Intent.WARNING} compact data-testid="term-panel-issue" style={{ marginTop: 6 }}>
          {issueText(i, i18n.language)}
        </Callout>
      ))}
    </Card>
  );
}

const TERM_ADDED = 'linguaport:term-added';

/**
 * "Add a term" among the text translation's actions: into a term base the user may edit (their
 * default first), the source prefilled with the text selected on the page.
 */
function TermAddAction({ props }: SlotViewProps<PanelProps>) {
  const { t } = useTranslation();
  const api = useApi();
  const notify = useNotify();
  // The slot asks for term:add; the text translation's own button permission is needed too.
  const mayAdd = usePermission().hasButton('transText:addTerm');
  const [open, setOpen] = useState(false);
  const [bases, setBases] = useState<TermBase[] | null>(null);
  const [draft, setDraft] = useState({ libraryId: 0, source: '', target: '' });
  const [error, setError] = useState<string | null>(null);
  const start = () => {
    setError(null);
    setDraft({ libraryId: 0, source: window.getSelection()?.toString().trim().slice(0, 200) ?? '', target: '' });
    setOpen(true);
    void api.get<Paged<TermBase>>('/term/library/list', { params: { pageNum: 1, pageSize: 100 }, silent: true }).then(
      (r) => {
        const editable = r.records.filter((b) => b.mayEdit);
        setBases(editable);
        setDraft((d) => ({ ...d, libraryId: (editable.find((b) => b.isDefault) ?? editable[0])?.id ?? 0 }));
      },
      () => setBases([]),
    );
  };
  const save = async () => {
    try {
      await api.post('/term/entry/add', { libraryId: draft.libraryId, source: draft.source, target: draft.target, sourceLang: props.source, targetLang: props.target, forbidden: false, bidirectional: false }, { silent: true });
      notify.success(t('panelAdded', { name: bases?.find((b) => b.id === draft.libraryId)?.name ?? '' }));
      setOpen(false);
      window.dispatchEvent(new Event(TERM_ADDED));
    } catch (err) {
      setError((err as ApiErrorInfo).msg);
    }
  };
  if (!mayAdd) return null;
  return (
    <>
      <Button icon="add" text={t('panelAdd')} onClick={start} data-testid="add-term" />
      <Dialog isOpen={open} onClose={() => setOpen(false)} title={t('panelAdd')}>
        <div className={Classes.DIALOG_BODY} style={{ display: 'grid', gap: 8 }} data-testid="term-add-form">
          {!bases && <Spinner size={20} />}
          {bases && bases.length === 0 && <Callout intent={Intent.WARNING}>{t('panelNoBase')}</Callout>}
          {bases && bases.length > 0 && (
            <>
              <HTMLSelect aria-label={t('panelAddTo')} value={draft.libraryId} options={bases.map((b) => ({ value: b.id, label: b.name }))} onChange={(e) => setDraft({ ...draft, libraryId: Number(e.target.value) })} />
              <InputGroup aria-label={t('source')} placeholder={t('source')} value={draft.source} onChange={(e) => setDraft({ ...draft, source: e.target.value })} data-testid="term-add-source" />
              <InputGroup aria-label={t('target')} placeholder={t('target')} value={draft.target} onChange={(e) => setDraft({ ...draft, target: e.target.value })} data-testid="term-add-target" />
              {error && <Callout intent={Intent.DANGER}>{error}</Callout>}
            </>
          )}
        </div>
        <div className={Classes.DIALOG_FOOTER}>
          <div className={Classes.DIALOG_FOOTER_ACTIONS}>
            <Button text={t('cancel')} onClick={() => setOpen(false)} />
            <Button intent={Intent.PRIMARY} text={t('save')} disabled={!draft.libraryId || !draft.source.trim() || !draft.target.trim()} onClick={() => void save()} data-testid="term-add-save" />
          </div>
        </div>
      </Dialog>
    </>
  );
}

export default definePlugin({ id: 'term', views: { TermBases, TermHistory, TermsPanel, TermAddAction } });
