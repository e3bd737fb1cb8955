import { useCallback, useEffect, useMemo, useState } from 'react';
import { Button, Callout, Classes, H4, Intent, NonIdealState, Spinner, Switch } from '@blueprintjs/core';
import { useApi, usePlatform, useTranslation, type ApiErrorInfo, type ViewProps } from '@linguaport/sdk/console';
import { PageImage } from './FileView2.js';
import { NS, queryId } from './common.js';

interface OcrBlock {
  idx: number;
  source: string;
  target: string | null;
  ocr: boolean;
  x: number;
  y: number;
  w: number;
  h: number;
}

interface OcrPage {
  number: number;
  width: number;
  height: number;
  blocks: OcrBlock[];
}

interface OcrView {
  id: number;
  name: string;
  ocr: boolean;
  pages: OcrPage[];
}

const plain = (text: string) => text.replace(/<\/?\d+\/?>/g, '');

/**
 * /fileViewOCR: a scanned document's recognised text over its page images. Each block is outlined
 * where the text was found; choosing one (on the page or in the list) shows what was recognised and
 * its translation side by side, and the translation can be laid over the page instead of the scan.
 * Page Up and Page Down turn the pages.
 */
export function FileViewOCR({ query }: ViewProps) {
  const { t } = useTranslation(NS);
  const api = useApi();
  const { navigate } = usePlatform();
  const id = queryId(query);
  const [view, setView] = useState<OcrView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [page, setPage] = useState(0);
  const [selected, setSelected] = useState<number | null>(null);
  const [overlay, setOverlay] = useState(false);

  const load = useCallback(async () => {
    if (!id) return;
    try {
      setView(await api.get<OcrView>(`/transFile/ocr/${id}`, { silent: true }));
    } catch (err) {
      setError((err as ApiErrorInfo).msg);
    }
  }, [api, id]);
  useEffect(() => void load(), [load]);

  const pages = view?.pages ?? [];
  const current = pages[Math.min(page, Math.max(0, pages.length - 1))];
  const turn = useCallback((by: number) => {
    setSelected(null);
    setPage((p) => Math.max(0, Math.min(pages.length - 1, p + by)));
  }, [pages.length]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'PageDown') turn(1);
      else if (e.key === 'PageUp') turn(-1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [turn]);
  const box = useMemo(() => (b: OcrBlock) => {
    const w = current?.width || 1;
    const h = current?.height || 1;
    return { left: `${(b.x / w) * 100}%`, top: `${(b.y / h) * 100}%`, width: `${(b.w / w) * 100}%`, height: `${(b.h / h) * 100}%` };
  }, [current]);

  if (!id) return <NonIdealState icon="document" title={t('ocrNone')} />;
  if (error) return <Callout intent={Intent.DANGER}>{error}</Callout>;
  if (!view) return <div style={{ display: 'grid', placeItems: 'center', height: 200 }}><Spinner /></div>;
  if (!current) {
    return <NonIdealState icon="eye-off" title={t('ocrNone')} description={t('ocrNoneHint')} action={<Button icon="arrow-left" onClick={() => navigate('/transFile')}>{t('backToList')}</Button>} />;
  }
  return (
    <div data-testid="file-view-ocr" style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
        <Button icon="arrow-left" minimal onClick={() => navigate('/transFile')} aria-label={t('backToList')} />
        <H4 style={{ margin: 0 }}>{view.name}</H4>
        <Button icon="chevron-left" disabled={page === 0} onClick={() => turn(-1)} aria-label={t('ocrPrevious')} data-testid="ocr-previous" />
        <span data-testid="ocr-page">{t('ocrPage', { page: current.number, pages: pages[pages.length - 1]!.number })}</span>
        <Button icon="chevron-right" disabled={page >= pages.length - 1} onClick={() => turn(1)} aria-label={t('ocrNext')} data-testid="ocr-next" />
        <Switch checked={overlay} onChange={(e) => setOverlay(e.currentTarget.checked)} label={t('ocrShowTranslation')} style={{ margin: 0 }} data-testid="ocr-overlay" />
      </div>
      <div style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 3fr) minmax(0, 2fr)', gap: 16, alignItems: 'start' }}>
        <div style={{ position: 'relative' }}>
          <PageImage url={`/transFile/ocr/${view.id}/page/${current.number}`} alt={t('ocrPage', { page: current.number, pages: pages.length })} testId={`ocr-image-${current.number}`} />
          {current.blocks.map((b) => (
            <div
              key={b.idx}
              data-testid={`ocr-box-${b.idx}`}
              role="button"
              tabIndex={0}
              aria-label={t('ocrBlock', { n: b.idx + 1 })}
              onClick={() => setSelected(b.idx)}
              onKeyDown={(e) => e.key === 'Enter' && setSelected(b.idx)}
              title={plain(b.source)}
              style={{
                position: 'absolute',
                ...box(b),
                outline: `2px solid ${selected === b.idx ? '#cd4246' : 'rgba(45, 114, 210, 0.7)'}`,
                background: overlay ? 'rgba(255,255,255,0.95)' : selected === b.idx ? 'rgba(205,66,70,0.08)' : 'transparent',
                cursor: 'pointer',
                overflow: 'hidden',
                fontSize: 11,
                lineHeight: 1.2,
              }}
            >
              {overlay ? plain(b.target ?? b.source) : null}
            </div>
          ))}
        </div>
        <div style={{ maxHeight: '75vh', overflowY: 'auto' }} className={Classes.ELEVATION_0}>
          {current.blocks.map((b) => (
            <div
              key={b.idx}
              data-testid={`ocr-text-${b.idx}`}
              onClick={() => setSelected(b.idx)}
              style={{ padding: 8, borderBottom: '1px solid #e5e8eb', background: selected === b.idx ? '#fdf0f0' : undefined, cursor: 'pointer' }}
            >
              <div className={Classes.TEXT_MUTED} style={{ fontSize: 11 }}>{t('ocrRecognised')}</div>
              <div>{plain(b.source)}</div>
              <div className={Classes.TEXT_MUTED} style={{ fontSize: 11, marginTop: 4 }}>{t('ocrTranslation')}</div>
              <div data-testid={`ocr-target-${b.idx}`}>{b.target === null ? '—' : plain(b.target)}</div>
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
