import { useCallback, useEffect, useState } from 'react';
import { Button, Callout, H4, Intent, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { StatusTag, useApi, useBus, usePlatform, useTranslation, type ApiErrorInfo, type ViewProps } from '@linguaport/sdk/console';
import { FILE_CHANGED, type FileChanged, type FileRow, type PreviewStatus } from '../shared/schemas.js';
import { NS, queryId, useLanguageName, useStates } from './common.js';

interface PreviewState {
  status: PreviewStatus;
  sourcePages: number;
  targetPages: number;
}

/** One page image, fetched through the shared client (the session header goes with it). */
export function PageImage({ url, alt, testId }: { url: string; alt: string; testId: string }) {
  const api = useApi();
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    let href: string | null = null;
    api.get<Blob>(url, { responseType: 'blob', silent: true }).then(
      (blob) => {
        href = URL.createObjectURL(blob);
        if (live) setSrc(href);
      },
      () => undefined,
    );
    return () => {
      live = false;
      if (href) URL.revokeObjectURL(href);
    };
  }, [api, url]);
  return src ? <img data-testid={testId} src={src} alt={alt} style={{ width: '100%', border: '1px solid #d3d8de', background: '#fff' }} /> : <div style={{ height: 200, display: 'grid', placeItems: 'center' }}><Spinner size={20} /></div>;
}

/**
 * /fileView2: the documents themselves, the original beside its translation, page by page, as the
 * office suite lays them out (page images; a PDF as it is, text formats as plain pages). Prepared on
 * first visit; the page follows the preview's state live until it is ready.
 */
export function FileView2({ query }: ViewProps) {
  const { t } = useTranslation(NS);
  const api = useApi();
  const { navigate } = usePlatform();
  const states = useStates();
  const name = useLanguageName();
  const id = queryId(query);
  const [file, setFile] = useState<FileRow | null>(null);
  const [preview, setPreview] = useState<PreviewState | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    if (!id) return;
    try {
      const f = await api.get<FileRow>(`/transFile/get/${id}`, { silent: true });
      setFile(f);
      let p = await api.get<PreviewState>(`/transFile/preview/${id}`, { silent: true });
      if (p.status === 'notPreviewed' || p.status === 'previewFailed') {
        await api.post(`/transFile/preview/${id}`, undefined, { silent: true });
        p = await api.get<PreviewState>(`/transFile/preview/${id}`, { silent: true });
      }
      setPreview(p);
      setError(null);
    } catch (e) {
      setError((e as ApiErrorInfo).msg);
    }
  }, [api, id]);
  useEffect(() => void load(), [load]);
  useBus<FileChanged>(
    FILE_CHANGED,
    useCallback(
      (event: { payload: FileChanged }) => {
        if (event.payload.id === id && event.payload.previewStatus !== preview?.status) void load();
      },
      [id, load, preview?.status],
    ),
  );

  if (!id) return <NonIdealState icon="search" title={t('noFileChosen')} action={<Button text={t('backToList')} onClick={() => navigate('/transFile')} />} />;
  if (error) return <Callout intent={Intent.DANGER} style={{ margin: 16 }} data-testid="file-view2-error">{error} <Button minimal text={t('backToList')} onClick={() => navigate('/transFile')} /></Callout>;
  const pages = preview ? Math.max(preview.sourcePages, preview.targetPages) : 0;

  return (
    <div data-testid="file-view2" style={{ padding: 16, display: 'grid', gap: 10 }}>
      <div style={{ display: 'flex', gap: 10, alignItems: 'center' }}>
        <Button icon="arrow-left" minimal aria-label={t('backToList')} onClick={() => navigate('/transFile')} />
        <H4 style={{ margin: 0 }}>{file?.name ?? '…'}</H4>
        {file && <Tag minimal>{name(file.sourceLang)} → {name(file.targetLang)}</Tag>}
        {preview && <StatusTag value={preview.status} states={states.preview} />}
        <div style={{ flex: 1 }} />
        <Button icon="comparison" text={t('previewSideBySide')} onClick={() => navigate(`/fileView?id=${id}`)} />
      </div>
      {!preview || preview.status === 'preparing' ? (
        <NonIdealState icon={<Spinner size={28} />} title={t('preparingPreview')} description={t('preparingPreviewHint')} />
      ) : preview.status === 'unsupported' ? (
        <NonIdealState icon="eye-off" title={t('previewUnsupported')} action={<Button text={t('previewSideBySide')} onClick={() => navigate(`/fileView?id=${id}`)} />} />
      ) : preview.status === 'previewFailed' ? (
        <NonIdealState icon="error" title={t('previewFailedTitle')} action={<Button icon="refresh" text={t('retry')} onClick={() => void load()} />} />
      ) : (
        <div data-testid="rendered-pages" style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 12, maxHeight: 'calc(100vh - 200px)', overflow: 'auto' }}>
          <div style={{ fontWeight: 600 }}>{file ? name(file.sourceLang) : ''}</div>
          <div style={{ fontWeight: 600 }}>{file ? name(file.targetLang) : ''}</div>
          {Array.from({ length: pages }, (_, i) => i + 1).flatMap((n) => [
            <div key={`s${n}`}>{n <= preview.sourcePages && <PageImage url={`/transFile/preview/${id}/source/${n}`} alt={t('pageAlt', { n, side: t('original') })} testId={`source-page-${n}`} />}</div>,
            <div key={`t${n}`}>{n <= preview.targetPages && <PageImage url={`/transFile/preview/${id}/target/${n}`} alt={t('pageAlt', { n, side: t('translation') })} testId={`target-page-${n}`} />}</div>,
          ])}
        </div>
      )}
    </div>
  );
}
