import { useCallback, useRef, useState } from 'react';
import { Button, ButtonGroup, Callout, Card, Intent, ProgressBar, Radio, RadioGroup, Tooltip } from '@blueprintjs/core';
import { PageHeader, ConfirmDialog, PagedTable, SearchBar, StatusTag, useApi, useBus, useNotify, useRefreshBefore, useTranslation, type ApiErrorInfo, type PagedColumn, type PageQuery } from '@linguaport/sdk/console';
import { actionsFrom, formatDate, formatSize, pdfConversion } from '@linguaport/sdk/shared';
import { download, NS, useStates } from './common.js';

interface Conversion {
  id: number;
  name: string;
  size: number;
  direction: 'pdfToDocx' | 'toPdf';
  status: (typeof pdfConversion.states)[number];
  resultName: string | null;
  resultSize: number | null;
  error: string | null;
  createdAt: string;
}

const ACCEPT = { pdfToDocx: '.pdf', toPdf: '.docx,.doc,.xlsx,.xls,.pptx,.ppt,.odt,.ods,.odp,.rtf,.txt,.html,.htm' } as const;

/**
 * /pdf: PDF conversion: a PDF to an editable Word document, or documents to PDF. While files upload
 * the page keeps its dialogs open (refreshBefore); each conversion's state follows pdfConversion live.
 */
export function Pdf() {
  const { t } = useTranslation(NS);
  const api = useApi();
  const notify = useNotify();
  const states = useStates();
  const { setRefreshBefore } = useRefreshBefore();
  const input = useRef<HTMLInputElement>(null);
  const [direction, setDirection] = useState<Conversion['direction']>('pdfToDocx');
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [refresh, setRefresh] = useState(0);
  const [deleting, setDeleting] = useState<Conversion | null>(null);
  const reload = useCallback(() => setRefresh((n) => n + 1), []);
  useBus('transFile.conversionChanged', reload);

  const send = async (files: File[]) => {
    if (!files.length) return;
    const form = new FormData();
    form.set('direction', direction);
    for (const f of files) form.append('files', f);
    setRefreshBefore(true);
    setProgress(0);
    setError(null);
    try {
      await api.post('/pdf/upload', form, { silent: true, onUploadProgress: setProgress });
      reload();
    } catch (e) {
      setError((e as ApiErrorInfo).msg);
    } finally {
      setRefreshBefore(false);
      setProgress(null);
    }
  };

  const load = useCallback(
    async (q: PageQuery) => {
      const r = await api.get<{ records: Conversion[]; total: number }>('/pdf/list', { params: { pageNum: q.page, pageSize: q.pageSize, ...filters }, silent: true });
      return { rows: r.records, total: r.total };
    },
    [api, filters],
  );

  const columns: PagedColumn<Conversion>[] = [
    { key: 'name', title: t('name') },
    { key: 'direction', title: t('pdfPage.direction'), render: (r) => t(`pdfPage.${r.direction}`) },
    { key: 'size', title: t('size'), render: (r) => formatSize(r.size) },
    { key: 'createdAt', title: t('uploadTime'), render: (r) => formatDate(r.createdAt) },
    {
      key: 'status',
      title: t('pdfPage.status'),
      render: (r) => (
        <Tooltip content={r.error ?? ''} disabled={!r.error}>
          <span data-testid={`conversion-status-${r.id}`} data-status={r.status}>
            <StatusTag value={r.status} states={states.pdf} />
          </span>
        </Tooltip>
      ),
    },
    {
      key: 'actions',
      title: t('actions'),
      render: (r) => {
        const allowed = actionsFrom(pdfConversion, r.status, 'owner');
        return (
          <ButtonGroup minimal>
            {allowed.includes('download') && (
              <Button icon="download" intent={Intent.PRIMARY} aria-label={t('download')} data-testid={`conversion-download-${r.id}`} onClick={() => void download(api, `/pdf/download/${r.id}`, r.resultName ?? r.name).catch((e: ApiErrorInfo) => notify.error(e.msg))} />
            )}
            {allowed.includes('convert') && r.status === 'conversionFailed' && (
              <Button icon="refresh" aria-label={t('retry')} onClick={() => void api.post(`/pdf/retry/${r.id}`, undefined, { silent: true }).then(reload, (e: ApiErrorInfo) => notify.error(e.msg))} />
            )}
            <Button icon="trash" intent={Intent.DANGER} aria-label={t('delete')} onClick={() => setDeleting(r)} />
          </ButtonGroup>
        );
      },
    },
  ];

  return (
    <div data-testid="pdf-view" style={{ padding: 16, display: 'grid', gap: 12 }}>
      <PageHeader title={t('pdfTitle')} />
      <Card style={{ display: 'grid', gap: 10 }}>
        <RadioGroup inline label={t('pdfPage.direction')} selectedValue={direction} onChange={(e) => setDirection(e.currentTarget.value as Conversion['direction'])}>
          <Radio value="pdfToDocx" label={t('pdfPage.pdfToDocx')} />
          <Radio value="toPdf" label={t('pdfPage.toPdf')} />
        </RadioGroup>
        <div
          role="button"
          tabIndex={0}
          data-testid="pdf-drop"
          onClick={() => input.current?.click()}
          onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && input.current?.click()}
          onDragOver={(e) => e.preventDefault()}
          onDrop={(e) => {
            e.preventDefault();
            void send(Array.from(e.dataTransfer.files));
          }}
          style={{ border: '2px dashed #abb3bf', borderRadius: 6, padding: 16, textAlign: 'center', cursor: 'pointer' }}
        >
          {t(direction === 'pdfToDocx' ? 'pdfPage.dropPdf' : 'pdfPage.dropDocument')}
          <input ref={input} data-testid="pdf-input" type="file" multiple accept={ACCEPT[direction]} style={{ display: 'none' }} onChange={(e) => { const files = Array.from(e.currentTarget.files ?? []); e.currentTarget.value = ''; void send(files); }} />
        </div>
        {progress !== null && <ProgressBar value={progress} intent={Intent.PRIMARY} />}
        {error && <Callout intent={Intent.DANGER} data-testid="pdf-error">{error}</Callout>}
      </Card>
      <SearchBar fields={[{ name: 'name', label: t('name') }, { name: 'status', label: t('pdfPage.status'), type: 'select', options: pdfConversion.states.map((s) => ({ value: s, label: t(`pdf.${s}`) })) }]} onSearch={setFilters} />
      <PagedTable<Conversion> testId="conversion" columns={columns} rowKey={(r) => r.id} load={load} reloadKey={JSON.stringify(filters)} refreshKey={refresh} emptyText={t('pdfPage.empty')} />
      <ConfirmDialog
        isOpen={deleting !== null}
        title={t('pdfPage.deleteTitle')}
        message={t('pdfPage.deleteMessage')}
        items={deleting ? [deleting.name] : []}
        intent="danger"
        confirmText={t('delete')}
        onConfirm={async () => {
          await api.delete('/pdf/delete', { params: { ids: String(deleting!.id) } });
          setDeleting(null);
          reload();
        }}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}
