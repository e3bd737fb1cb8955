import { useCallback, useEffect, useState } from 'react';
import { Button, Callout, Classes, H4, Intent, NonIdealState, Spinner, Tag, TextArea } from '@blueprintjs/core';
import { useApi, useNotify, usePlatform, useTranslation, type ApiErrorInfo, type ViewProps } from '@linguaport/sdk/console';
import type { FileRow } from '../shared/schemas.js';
import { download, NS, queryId } from './common.js';

interface PicBlock {
  idx: number;
  source: string;
  target: string | null;
  edited: boolean;
  x: number;
  y: number;
  w: number;
  h: number;
  confidence: number;
}

interface PicView {
  file: FileRow;
  width: number;
  height: number;
  blocks: PicBlock[];
}

const plain = (text: string) => text.replace(/<\/?\d+\/?>/g, '');

/** A picture fetched with the session (and fetched again when `version` changes), the blocks outlined over it. */
function Picture({ url, version, alt, testId, view, selected, onSelect }: { url: string; version: number; alt: string; testId: string; view: PicView; selected: number | null; onSelect(idx: number): void }) {
  const api = useApi();
  const { t } = useTranslation(NS);
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    let href: string | null = null;
    setFailed(null);
    api.get<Blob>(url, { responseType: 'blob', silent: true, params: { v: version } }).then(
      (blob) => {
        href = URL.createObjectURL(blob);
        if (live) setSrc(href);
      },
      (e: ApiErrorInfo) => live && setFailed(e.msg || t('pic.pictureFailed')),
    );
    return () => {
      live = false;
      if (href) URL.revokeObjectURL(href);
    };
  }, [api, url, version, t]);
  if (failed) return <Callout intent={Intent.DANGER}>{failed}</Callout>;
  if (!src) return <div style={{ height: 200, display: 'grid', placeItems: 'center' }}><Spinner size={20} /></div>;
  const pct = (v: number, of: number) => `${(v / (of || 1)) * 100}%`;
  return (
    <div style={{ position: 'relative' }}>
      <img data-testid={testId} data-version={version} src={src} alt={alt} style={{ width: '100%', display: 'block', border: '1px solid #d3d8de', background: '#fff' }} />
      {view.blocks.map((b) => (
        <div
          key={b.idx}
          data-testid={`${testId}-box-${b.idx}`}
          role="button"
          tabIndex={0}
          aria-label={t('ocrBlock', { n: b.idx + 1 })}
          title={plain(b.source)}
          onClick={() => onSelect(b.idx)}
          onKeyDown={(e) => e.key === 'Enter' && onSelect(b.idx)}
          style={{
            position: 'absolute',
            left: pct(b.x, view.width),
            top: pct(b.y, view.height),
            width: pct(b.w, view.width),
            height: pct(b.h, view.height),
            outline: `2px solid ${selected === b.idx ? '#cd4246' : 'rgba(45, 114, 210, 0.7)'}`,
            background: selected === b.idx ? 'rgba(205,66,70,0.08)' : 'transparent',
            cursor: 'pointer',
          }}
        />
      ))}
    </div>
  );
}

/**
 * /fileViewPic: the original picture beside the translated one, each recognised block outlined on
 * both; the block list gives what was recognised and its translation. Editing a translation saves it
 * and the translated picture is drawn again. Downloads: the picture and the bilingual text.
 */
export function FileViewPic({ query }: ViewProps) {
  const { t } = useTranslation(NS);
  const api = useApi();
  const notify = useNotify();
  const { navigate } = usePlatform();
  const id = queryId(query);
  const [view, setView] = useState<PicView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [editing, setEditing] = useState<{ idx: number; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const [editError, setEditError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  const load = useCallback(async () => {
    if (!id) return;
    try {
      setView(await api.get<PicView>(`/transPic/view/${id}`, { silent: true }));
    } catch (err) {
      setError((err as ApiErrorInfo).msg);
    }
  }, [api, id]);
  useEffect(() => void load(), [load]);

  const saveEdit = async () => {
    if (!editing || !view) return;
    setSaving(true);
    setEditError(null);
    try {
      // The area's unit edit writes the result again: here, the translated picture is drawn anew.
      await api.put(`/transFile/units/${view.file.id}/${editing.idx}`, { target: editing.text }, { silent: true });
      setEditing(null);
      await load();
      setVersion((v) => v + 1);
      notify.success(t('pic.rerendered'));
    } catch (err) {
      setEditError((err as ApiErrorInfo).msg);
    } finally {
      setSaving(false);
    }
  };
  const save = (url: string, name: string) => void download(api, url, name).catch((e: ApiErrorInfo) => notify.error(e.msg));

  if (!id) return <NonIdealState icon="media" title={t('pic.notFound')} action={<Button icon="arrow-left" onClick={() => navigate('/transPic')}>{t('backToList')}</Button>} />;
  if (error) return <Callout intent={Intent.DANGER} style={{ margin: 16 }}>{error}</Callout>;
  if (!view) return <div style={{ display: 'grid', placeItems: 'center', height: 200 }}><Spinner /></div>;
  const base = view.file.name.replace(/\.[^.]+$/, '');
  return (
    <div data-testid="file-view-pic" style={{ display: 'flex', flexDirection: 'column', gap: 12, padding: 16 }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
        <Button icon="arrow-left" minimal onClick={() => navigate('/transPic')} aria-label={t('backToList')} />
        <H4 style={{ margin: 0 }}>{view.file.name}</H4>
        <Tag minimal>{t('pic.blockCount', { count: view.blocks.length })}</Tag>
        <span style={{ flex: 1 }} />
        <Button icon="download" intent={Intent.PRIMARY} data-testid="pic-view-download" text={t('pic.downloadPicture')} disabled={saving} onClick={() => save(`/transPic/download/${view.file.id}`, view.file.resultName ?? view.file.name)} />
        <Button icon="document" data-testid="pic-view-download-text" text={t('pic.downloadText')} disabled={saving} onClick={() => save(`/transPic/download/${view.file.id}?kind=text`, `${base}_${view.file.sourceLang}_${view.file.targetLang}.txt`)} />
      </div>
      <div style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)', gap: 16, alignItems: 'start' }}>
        <div>
          <div className={Classes.TEXT_MUTED} style={{ marginBottom: 4 }}>{t('pic.original')}</div>
          <Picture url={`/transPic/picture/${view.file.id}/source`} version={0} alt={t('pic.original')} testId="pic-source" view={view} selected={selected} onSelect={setSelected} />
        </div>
        <div>
          <div className={Classes.TEXT_MUTED} style={{ marginBottom: 4, display: 'flex', gap: 8, alignItems: 'center' }}>
            {t('pic.translated')} {saving && <Spinner size={14} />}
          </div>
          <Picture url={`/transPic/picture/${view.file.id}/target`} version={version} alt={t('pic.translated')} testId="pic-target" view={view} selected={selected} onSelect={setSelected} />
        </div>
      </div>
      {view.blocks.length === 0 ? (
        <NonIdealState icon="search-text" title={t('pic.noBlocks')} description={t('pic.noBlocksHint')} />
      ) : (
        <div className={Classes.ELEVATION_0} data-testid="pic-blocks">
          {view.blocks.map((b) => (
            <div
              key={b.idx}
              data-testid={`pic-block-${b.idx}`}
              onClick={() => setSelected(b.idx)}
              style={{ padding: 8, borderBottom: '1px solid #e5e8eb', background: selected === b.idx ? '#fdf0f0' : undefined, display: 'grid', gridTemplateColumns: '1fr 1fr auto', gap: 12, alignItems: 'start' }}
            >
              <div>
                <div className={Classes.TEXT_MUTED} style={{ fontSize: 11 }}>{t('ocrRecognised')} · {t('pic.confidence', { n: b.confidence })}</div>
                <div data-testid={`pic-source-${b.idx}`}>{plain(b.source)}</div>
              </div>
              <div>
                <div className={Classes.TEXT_MUTED} style={{ fontSize: 11 }}>
                  {t('ocrTranslation')} {b.edited && <Tag minimal>{t('pic.edited')}</Tag>}
                </div>
                {editing?.idx === b.idx ? (
                  <>
                    <TextArea data-testid={`pic-edit-text-${b.idx}`} fill autoFocus value={editing.text} onChange={(e) => setEditing({ idx: b.idx, text: e.currentTarget.value })} />
                    {editError && <Callout intent={Intent.DANGER} style={{ marginTop: 4 }}>{editError}</Callout>}
                  </>
                ) : (
                  <div data-testid={`pic-target-${b.idx}`}>{b.target === null ? '—' : plain(b.target)}</div>
                )}
              </div>
              <div style={{ display: 'flex', gap: 4 }}>
                {editing?.idx === b.idx ? (
                  <>
                    <Button small intent={Intent.PRIMARY} data-testid={`pic-save-${b.idx}`} text={t('save')} loading={saving} disabled={!editing.text.trim()} onClick={saveEdit} />
                    <Button small text={t('cancel')} disabled={saving} onClick={() => { setEditing(null); setEditError(null); }} />
                  </>
                ) : (
                  <Button small icon="edit" data-testid={`pic-edit-${b.idx}`} aria-label={t('pic.edit')} text={t('pic.edit')} disabled={saving} onClick={() => { setEditError(null); setEditing({ idx: b.idx, text: plain(b.target ?? b.source) }); }} />
                )}
              </div>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
