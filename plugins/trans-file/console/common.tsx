import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Intent, ProgressBar, Tooltip } from '@blueprintjs/core';
import { ConfirmDialog, downloadFile, StatusTag, useApi, useBus, useNotify, useSession, useTranslation, type ApiClient, type ApiErrorInfo, type PageQuery } from '@linguaport/sdk/console';
import type { StatusIntent } from '@linguaport/sdk/console';
import { documentFile, pdfConversion, previewStatus, type Actor } from '@linguaport/sdk/shared';
import { FILE_CHANGED, type FileChanged, type FileRow, type Settings } from '../shared/schemas.js';

/** What every view of the area shares: the setup call, language names, downloads, status labels, live rows. */

export const NS = 'transFile';

export interface Setup {
  languages: Array<{ code: string; targets: string[] }>;
  defaultSource: string | null;
  defaultTarget: string | null;
  limits: Settings;
  formats: Array<{ id: string; name: string; extensions: string[] }>;
}

export type Load<T> = { state: 'loading' } | { state: 'failed'; msg: string } | { state: 'ready'; value: T };

export function useSetup(): Load<Setup> {
  const api = useApi();
  const [setup, setSetup] = useState<Load<Setup>>({ state: 'loading' });
  useEffect(() => {
    api.get<Setup>('/transFile/setup', { silent: true }).then(
      (value) => setSetup({ state: 'ready', value }),
      (err: ApiErrorInfo) => setSetup({ state: 'failed', msg: err.msg }),
    );
  }, [api]);
  return setup;
}

export function useLanguageName(): (code: string) => string {
  const { i18n } = useTranslation(NS);
  return useCallback(
    (code: string) => {
      try {
        return new Intl.DisplayNames([i18n.language], { type: 'language' }).of(code) ?? code;
      } catch {
        return code;
      }
    },
    [i18n.language],
  );
}

/** Fetches a file through the shared client (the session header goes with it) and saves it under `name`. */
export const download = (api: ApiClient, url: string, name: string): Promise<void> => downloadFile(api, url, name);

const FILE_INTENTS: Record<string, StatusIntent> = {
  uploading: 'primary',
  uploadInterrupted: 'warning',
  parsing: 'primary',
  parseFailed: 'danger',
  notTranslated: 'none',
  queued: 'none',
  translating: 'primary',
  terminated: 'warning',
  completed: 'success',
  failed: 'danger',
  unknown: 'warning',
};
const PREVIEW_INTENTS: Record<string, StatusIntent> = { notPreviewed: 'none', unsupported: 'none', preparing: 'primary', prepared: 'success', previewFailed: 'danger' };
const PDF_INTENTS: Record<string, StatusIntent> = { notConverted: 'none', converting: 'primary', converted: 'success', conversionFailed: 'danger' };

/** Labels and colours of the SDK machines' states, for StatusTag. */
export function useStates() {
  const { t } = useTranslation(NS);
  const of = (machine: { states: readonly string[] }, prefix: string, intents: Record<string, StatusIntent>) =>
    Object.fromEntries(machine.states.map((s) => [s, { label: t(`${prefix}.${s}`), intent: intents[s] ?? 'none' }]));
  return { file: of(documentFile, 'status', FILE_INTENTS), preview: of(previewStatus, 'preview', PREVIEW_INTENTS), pdf: of(pdfConversion, 'pdf', PDF_INTENTS) };
}

/**
 * The latest pushed state of each file (`transFile.changed`), merged over the rows a table loaded, so
 * progress moves without reloading; `onGone` runs when a file is deleted or a new one appears.
 */
export function useLiveFiles(onNew?: () => void): { merge(row: FileRow): FileRow; live: Record<number, FileChanged> } {
  const [live, setLive] = useState<Record<number, FileChanged>>({});
  const handler = useCallback(
    (event: { payload: FileChanged }) => {
      const p = event.payload;
      setLive((prev) => {
        if (!prev[p.id] || p.deleted) onNew?.();
        return { ...prev, [p.id]: p };
      });
    },
    [onNew],
  );
  useBus<FileChanged>(FILE_CHANGED, handler);
  const merge = useCallback((row: FileRow): FileRow => {
    const p = live[row.id];
    return p ? { ...row, ...p } : row;
  }, [live]);
  return { merge, live };
}

/** Percentage and segments done of a translating file. */
export function Progress({ file }: { file: Pick<FileRow, 'status' | 'percent' | 'segments' | 'segmentsDone'> }) {
  const { t } = useTranslation(NS);
  if (file.status !== 'translating' && file.status !== 'queued') return null;
  return (
    <div data-testid="file-progress" style={{ minWidth: 140 }}>
      <ProgressBar value={file.status === 'queued' ? 0 : file.percent / 100} intent={Intent.PRIMARY} animate={file.status === 'translating'} stripes={file.status === 'translating'} />
      <div style={{ fontSize: 12, color: '#5f6b7c' }}>{t('progress', { percent: file.percent, done: file.segmentsDone, total: file.segments })}</div>
    </div>
  );
}

/** The file id a detail page was opened for (`/fileView?id=3`). */
export function queryId(query: Record<string, string>): number | null {
  const id = Number(query.id);
  return Number.isInteger(id) && id > 0 ? id : null;
}

/**
 * What the document and picture lists share (`base`: `/transFile` or `/transPic`): the page call with
 * the filters and the all-users switch, rows merged with their pushed state, terminate and retry, and
 * the rows being deleted.
 */
export function useFileList(base: string) {
  const { t } = useTranslation(NS);
  const api = useApi();
  const notify = useNotify();
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [all, setAll] = useState(false);
  const [refreshKey, setRefreshKey] = useState(0);
  const [deleting, setDeleting] = useState<FileRow[] | null>(null);
  const refresh = useCallback(() => setRefreshKey((k) => k + 1), []);
  const { merge } = useLiveFiles(refresh);
  const me = useSession().current().user?.id;
  const load = useCallback(
    async (q: PageQuery) => {
      const r = await api.get<{ records: FileRow[]; total: number }>(`${base}/list`, { params: { pageNum: q.page, pageSize: q.pageSize, ...filters, ...(all ? { all: true } : {}) }, silent: true });
      return { rows: r.records, total: r.total };
    },
    [api, base, filters, all],
  );
  const act = async (row: FileRow, action: 'terminate' | 'retry') => {
    try {
      await api.post(`${base}/${action}/${row.id}`, undefined, { silent: true });
      refresh();
    } catch (e) {
      const err = e as ApiErrorInfo;
      notify.error(err.code === 3027 ? t('queueFull') : err.msg);
    }
  };
  const actorOf = (row: FileRow): Actor => (row.ownerId === me ? 'owner' : 'manager');
  return { setFilters, all, setAll, refresh, refreshKey, reloadKey: `${JSON.stringify(filters)}|${all}`, load, merge, act, actorOf, deleting, setDeleting };
}

/** A row's state (its error on hover) and live progress; `children` below them. */
export function FileStatus({ file, testId, children }: { file: FileRow; testId: string; children?: ReactNode }) {
  const states = useStates();
  return (
    <div data-testid={`${testId}-${file.id}`} data-status={file.status}>
      <Tooltip content={file.error ?? ''} disabled={!file.error}>
        <StatusTag value={file.status} states={states.file} />
      </Tooltip>
      <Progress file={file} />
      {children}
    </div>
  );
}

/** Asks before deleting `files` (`DELETE <base>/delete?ids=`); open while `files` is not null. */
export function DeleteFilesDialog({ base, files, onDeleted, onClose }: { base: string; files: FileRow[] | null; onDeleted(): void; onClose(): void }) {
  const { t } = useTranslation(NS);
  const api = useApi();
  return (
    <ConfirmDialog
      isOpen={files !== null}
      title={t('deleteTitle')}
      message={t('deleteMessage')}
      count={files?.length}
      items={files?.map((f) => f.name)}
      intent="danger"
      confirmText={t('delete')}
      onConfirm={async () => {
        await api.delete(`${base}/delete`, { params: { ids: files!.map((f) => f.id).join(',') } });
        onDeleted();
      }}
      onClose={onClose}
    />
  );
}
