import { Fragment, useCallback, useEffect, useState } from 'react';
import { Button, ButtonGroup, Callout, Checkbox, H4, HTMLSelect, InputGroup, Intent, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { issueText, sentencePairs } from '@linguaport/sdk/shared';
import { Slot, TagEditor, TaggedText, useApi, useNotify, usePermission, usePlatform, useTranslation, type ApiErrorInfo, type ViewProps } from '@linguaport/sdk/console';
import type { FileRow, UnitRow } from '../shared/schemas.js';
import { download, NS, queryId, useLanguageName } from './common.js';
import { partLabel } from './parts.js';

const PAGE = 100;
/** A stored origin's kind: `engine:3` and `tm:87` carry the engine or the match score after the colon. */
const originKind = (origin: string) => origin.split(':')[0]!;
/** `tm:87` reads "Memory 87%", `engine:Apertium` "Machine". */
const originLabel = (t: (key: string, options?: Record<string, unknown>) => string, origin: string) => {
  const kind = originKind(origin);
  const score = origin.slice(kind.length + 1);
  return kind === 'tm' && score ? t('originScore', { score }) : t(`origin.${kind}`, { defaultValue: origin });
};

/** What the areas filling `fileView.preview` receive: the file and the paragraph the user picked. */
export interface FileViewPanelProps {
  fileId: number;
  sourceLang: string;
  targetLang: string;
  source: string;
  target: string | null;
}

/** A unit's text with its inline placeholders as the kit's tag chips (the same as in the editor). */
export function UnitText({ text }: { text: string }) {
  return <TaggedText text={text} />;
}

/**
 * /fileView: a completed file's source and translation side by side, paragraph by paragraph, in one
 * scrolling grid (each row holds a paragraph and its translation, so both sides always scroll
 * together). A translated paragraph can be edited; the result file is written again, and the edit can
 * also go into one of the file's memories (the memory area checks the right to add to it).
 */
export function FileView({ query }: ViewProps) {
  const { t, i18n } = useTranslation(NS);
  const api = useApi();
  const notify = useNotify();
  const permissions = usePermission();
  const { navigate } = usePlatform();
  const name = useLanguageName();
  const id = queryId(query);
  const [file, setFile] = useState<FileRow | null>(null);
  const [units, setUnits] = useState<UnitRow[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [applied, setApplied] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [editing, setEditing] = useState<{ idx: number; draft: string } | null>(null);
  const [toMemory, setToMemory] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const [picked, setPicked] = useState<UnitRow | null>(null);

  const load = useCallback(async () => {
    if (!id) return;
    setLoading(true);
    try {
      const [f, u] = await Promise.all([
        api.get<FileRow>(`/transFile/get/${id}`, { silent: true }),
        api.get<{ records: UnitRow[]; total: number }>(`/transFile/units/${id}`, { params: { pageNum: page, pageSize: PAGE, ...(applied ? { q: applied } : {}) }, silent: true }),
      ]);
      setFile(f);
      setUnits(u.records);
      setTotal(u.total);
      setError(null);
    } catch (e) {
      setError((e as ApiErrorInfo).msg);
    } finally {
      setLoading(false);
    }
  }, [api, id, page, applied]);
  useEffect(() => void load(), [load]);

  const save = async () => {
    if (!editing || !file) return;
    if (editing.draft.trim() === '') return notify.warning(t('editRequired'));
    setSaving(true);
    try {
      const unit = await api.put<UnitRow>(`/transFile/units/${file.id}/${editing.idx}`, { target: editing.draft }, { silent: true });
      setUnits((list) => list.map((u) => (u.idx === unit.idx ? unit : u)));
      if (toMemory && unit.target) {
        // Documents look memories up by sentence, so an edit is written sentence by sentence when both
        // sides cut alike; otherwise (sentences joined or split) as the whole paragraph.
        const pairs = sentencePairs(unit.source, unit.target, file.sourceLang, file.targetLang) ?? [{ source: unit.source, target: unit.target }];
        await pairs
          .reduce<Promise<unknown>>((prev, pair) => prev.then(() => api.post('/TM/entry/add', { libraryId: toMemory, ...pair, sourceLang: file.sourceLang, targetLang: file.targetLang }, { silent: true })), Promise.resolve())
          .then(() => notify.success(pairs.length > 1 ? t('addedSentencesToMemory', { count: pairs.length }) : t('addedToMemory')), (e: ApiErrorInfo) => notify.warning(t('memoryRefused', { msg: e.msg })));
      }
      setEditing(null);
      notify.success(t('editSaved'));
    } catch (e) {
      notify.error((e as ApiErrorInfo).msg);
    } finally {
      setSaving(false);
    }
  };

  if (!id) return <NonIdealState icon="search" title={t('noFileChosen')} action={<Button text={t('backToList')} onClick={() => navigate('/transFile')} />} />;
  if (error) return <Callout intent={Intent.DANGER} style={{ margin: 16 }} data-testid="file-view-error">{error} <Button minimal text={t('backToList')} onClick={() => navigate('/transFile')} /></Callout>;
  const pages = Math.max(1, Math.ceil(total / PAGE));
  const memoryChoice = permissions.hasButton('tm:add') && (file?.memories.length ?? 0) > 0;

  return (
    <div data-testid="file-view" style={{ padding: 16, display: 'grid', gap: 10 }}>
      <div style={{ display: 'flex', gap: 10, alignItems: 'center', flexWrap: 'wrap' }}>
        <Button icon="arrow-left" minimal aria-label={t('backToList')} onClick={() => navigate('/transFile')} />
        <H4 style={{ margin: 0 }}>{file?.name ?? '…'}</H4>
        {file && <Tag minimal>{name(file.sourceLang)} → {name(file.targetLang)}</Tag>}
        <div style={{ flex: 1 }} />
        <InputGroup
          leftIcon="search"
          placeholder={t('searchParagraphs')}
          value={search}
          data-testid="unit-search"
          onChange={(e) => setSearch(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              setPage(1);
              setApplied(search.trim());
            }
          }}
        />
        <ButtonGroup>
          <Button icon="document-open" text={t('previewRendered')} onClick={() => navigate(`/fileView2?id=${id}`)} />
          {/* Not while an edit is being saved: the download would overtake it and miss the edit. */}
          {file && <Button icon="download" intent={Intent.PRIMARY} data-testid="view-download" text={t('download')} disabled={saving} onClick={() => void download(api, `/transFile/download/${file.id}`, file.resultName ?? file.name).catch((e: ApiErrorInfo) => notify.error(e.msg))} />}
        </ButtonGroup>
      </div>
      {loading && units.length === 0 ? (
        <NonIdealState icon={<Spinner size={24} />} description={t('loading')} />
      ) : units.length === 0 ? (
        <NonIdealState icon="inbox" description={applied ? t('noMatch') : t('noParagraphs')} />
      ) : (
        <div data-testid="side-by-side" style={{ display: 'grid', gridTemplateColumns: '48px 1fr 1fr', border: '1px solid #d3d8de', borderRadius: 4, maxHeight: 'calc(100vh - 220px)', overflow: 'auto' }}>
          <div style={{ position: 'sticky', top: 0, background: '#f6f7f9', padding: 6, fontWeight: 600 }}>#</div>
          <div style={{ position: 'sticky', top: 0, background: '#f6f7f9', padding: 6, fontWeight: 600 }}>{file ? name(file.sourceLang) : ''}</div>
          <div style={{ position: 'sticky', top: 0, background: '#f6f7f9', padding: 6, fontWeight: 600 }}>{file ? name(file.targetLang) : ''}</div>
          {units.map((u) => (
            <Fragment key={u.idx}>
              <div style={{ padding: 6, color: '#8f99a8', borderTop: '1px solid #edeff2' }}>{u.idx + 1}</div>
              <div data-testid={`source-${u.idx}`} style={{ padding: 6, borderTop: '1px solid #edeff2' }} onClick={() => setPicked(u)}>
                <UnitText text={u.source} />
                {u.part && <div style={{ fontSize: 11, color: '#8f99a8' }} data-testid={`part-${u.idx}`}>{partLabel(u.part, t as never)}</div>}
              </div>
              <div data-testid={`target-${u.idx}`} style={{ padding: 6, borderTop: '1px solid #edeff2', background: u.edited ? '#fbfaf0' : undefined }} onClick={() => setPicked(u)}>
                {editing?.idx === u.idx ? (
                  <div style={{ display: 'grid', gap: 6 }}>
                    <TagEditor
                      autoFocus
                      testId={`edit-${u.idx}`}
                      ariaLabel={t('translation')}
                      source={u.source}
                      value={editing.draft}
                      onChange={(draft) => setEditing({ idx: u.idx, draft })}
                      onKeyDown={(e) => {
                        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void save();
                        if (e.key === 'Escape') setEditing(null);
                      }}
                    />
                    {memoryChoice && (
                      <div style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
                        <Checkbox inline label={t('alsoToMemory')} checked={toMemory !== null} onChange={() => setToMemory(toMemory === null ? file!.memories[0]! : null)} />
                        {toMemory !== null && file!.memories.length > 1 && (
                          <HTMLSelect value={toMemory} onChange={(e) => setToMemory(Number(e.currentTarget.value))}>
                            {file!.memories.map((m) => (
                              <option key={m} value={m}>#{m}</option>
                            ))}
                          </HTMLSelect>
                        )}
                      </div>
                    )}
                    <ButtonGroup>
                      <Button icon="tick" intent={Intent.PRIMARY} data-testid={`save-${u.idx}`} text={t('save')} loading={saving} onClick={save} />
                      <Button icon="cross" text={t('cancel')} onClick={() => setEditing(null)} />
                    </ButtonGroup>
                  </div>
                ) : (
                  <div style={{ display: 'flex', gap: 6, alignItems: 'flex-start' }}>
                    <div style={{ flex: 1 }}>
                      {u.sentences ? (
                        // Each sentence with where it came from: the memory (and its score) or the engine.
                        u.sentences.map((s, k) => (
                          <span key={k} data-testid={`sentence-${u.idx}-${k}`} data-origin={s.origin} style={{ marginRight: 6 }}>
                            <UnitText text={s.target} />
                            <Tag minimal intent={originKind(s.origin) === 'tm' ? Intent.SUCCESS : Intent.NONE} style={{ marginLeft: 4 }}>
                              {originLabel(t, s.origin)}
                            </Tag>
                            {s.issues?.map((issue, n) => (
                              <Tag key={n} minimal intent={issue.severity === 'error' ? Intent.DANGER : Intent.WARNING} icon="warning-sign" data-testid={`sentence-issue-${u.idx}-${k}`} data-code={issue.code} style={{ marginLeft: 4, whiteSpace: 'normal' }}>
                                {issueText(issue, i18n.language)}
                              </Tag>
                            ))}
                          </span>
                        ))
                      ) : (
                        <>
                          <UnitText text={u.target ?? ''} />
                          {u.origin && originKind(u.origin) !== 'engine' && <Tag minimal style={{ marginLeft: 6 }}>{originLabel(t, u.origin)}</Tag>}
                        </>
                      )}
                    </div>
                    <Button small minimal icon="edit" data-testid={`edit-button-${u.idx}`} aria-label={t('editParagraph')} onClick={() => setEditing({ idx: u.idx, draft: u.target ?? '' })} />
                  </div>
                )}
              </div>
            </Fragment>
          ))}
        </div>
      )}
      {pages > 1 && (
        <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
          <Button icon="chevron-left" disabled={page <= 1} aria-label={t('previous')} onClick={() => setPage(page - 1)} />
          <span>{t('pageOf', { page, pages, total })}</span>
          <Button icon="chevron-right" disabled={page >= pages} aria-label={t('next')} onClick={() => setPage(page + 1)} />
        </div>
      )}
      {picked && file && (
        // Other areas show what they know of the picked paragraph (memory matches, terms).
        <Slot<FileViewPanelProps> name="fileView.preview" props={{ fileId: file.id, sourceLang: file.sourceLang, targetLang: file.targetLang, source: picked.source, target: picked.target }} empty={null} />
      )}
    </div>
  );
}
