import { useCallback, useState } from 'react';
import { Button, ButtonGroup, Callout, Classes, Dialog, FormGroup, Intent, NumericInput, ProgressBar, Tab, Tabs, Tag, Tooltip } from '@blueprintjs/core';
import { PageHeader, ConfirmDialog, PagedTable, SearchBar, useApi, useNotify, usePermission, usePlatform, useTranslation, type ApiErrorInfo, type PagedColumn, type PageQuery } from '@linguaport/sdk/console';
import { formatDate, formatSize } from '@linguaport/sdk/shared';
import { download, NS } from './common.js';

interface StoredRow {
  item: string;
  kind: 'source' | 'result' | 'pdf' | 'archive' | 'archiveResult' | 'conversionSource' | 'conversionResult';
  name: string;
  size: number;
  createdAt: string;
  jobType: 'document' | 'archive' | 'conversion';
  jobId: number;
  jobName: string;
  status: string;
}
interface Usage {
  usedBytes: number;
  quotaBytes: number;
  quotaMb: number;
  ownQuota: boolean;
}
interface QuotaRow extends Usage {
  userId: number;
  username: string;
  realName: string | null;
}

const KINDS = ['source', 'result', 'pdf', 'archive', 'archiveResult', 'conversionSource', 'conversionResult'] as const;
const JOB_PAGE = { document: '/transFile', archive: '/transFileDog', conversion: '/pdf' } as const;

function UsageBar({ usage }: { usage: Usage | null }) {
  const { t } = useTranslation(NS);
  if (!usage) return null;
  const fraction = usage.quotaBytes ? usage.usedBytes / usage.quotaBytes : 0;
  return (
    <div data-testid="storage-usage" style={{ maxWidth: 480 }}>
      <ProgressBar value={Math.min(1, fraction)} intent={fraction > 0.9 ? Intent.DANGER : fraction > 0.7 ? Intent.WARNING : Intent.PRIMARY} stripes={false} />
      <div style={{ fontSize: 12, color: '#5f6b7c', marginTop: 4 }}>{t('fm.usage', { used: formatSize(usage.usedBytes), quota: formatSize(usage.quotaBytes) })}</div>
    </div>
  );
}

/** Administrators: each user's storage and quota; a quota of their own or the area's default. */
function Quotas() {
  const { t } = useTranslation(NS);
  const api = useApi();
  const notify = useNotify();
  const [name, setName] = useState('');
  const [refresh, setRefresh] = useState(0);
  const [editing, setEditing] = useState<QuotaRow | null>(null);
  const [value, setValue] = useState<number | null>(null);
  const load = useCallback(
    async (q: PageQuery) => {
      const r = await api.get<{ records: QuotaRow[]; total: number }>('/fileManager/quotas', { params: { pageNum: q.page, pageSize: q.pageSize, ...(name ? { name } : {}) }, silent: true });
      return { rows: r.records, total: r.total };
    },
    [api, name],
  );
  const save = async (quotaMb: number | null) => {
    try {
      await api.put('/fileManager/quota', { userIds: [editing!.userId], quotaMb }, { silent: true });
      notify.success(t('saved'));
      setEditing(null);
      setRefresh((n) => n + 1);
    } catch (e) {
      notify.error((e as ApiErrorInfo).msg);
    }
  };
  const columns: PagedColumn<QuotaRow>[] = [
    { key: 'username', title: t('fm.user'), render: (r) => `${r.username}${r.realName && r.realName !== r.username ? ` (${r.realName})` : ''}` },
    { key: 'used', title: t('fm.used'), render: (r) => formatSize(r.usedBytes) },
    { key: 'quota', title: t('fm.quota'), render: (r) => <span>{r.quotaMb} MB {!r.ownQuota && <Tag minimal>{t('fm.default')}</Tag>}</span> },
    { key: 'actions', title: t('actions'), render: (r) => <Button small icon="edit" data-testid={`quota-edit-${r.userId}`} text={t('fm.setQuota')} onClick={() => { setEditing(r); setValue(r.quotaMb); }} /> },
  ];
  return (
    <div style={{ display: 'grid', gap: 10 }}>
      <SearchBar fields={[{ name: 'name', label: t('fm.user') }]} onSearch={(v) => setName(v.name ?? '')} />
      <PagedTable<QuotaRow> testId="quota" columns={columns} rowKey={(r) => r.userId} load={load} reloadKey={name} refreshKey={refresh} />
      <Dialog isOpen={editing !== null} onClose={() => setEditing(null)} title={t('fm.setQuotaOf', { name: editing?.username ?? '' })} canOutsideClickClose={false}>
        <div className={Classes.DIALOG_BODY}>
          <FormGroup label={t('fm.quotaMb')} labelFor="quota-mb">
            <NumericInput id="quota-mb" min={1} value={value ?? ''} onValueChange={(n) => setValue(Number.isFinite(n) ? n : null)} />
          </FormGroup>
        </div>
        <div className={Classes.DIALOG_FOOTER}>
          <div className={Classes.DIALOG_FOOTER_ACTIONS}>
            <Button text={t('fm.useDefault')} onClick={() => save(null)} />
            <Button intent={Intent.PRIMARY} text={t('save')} disabled={!value || value < 1} onClick={() => save(value)} />
          </div>
        </div>
      </Dialog>
    </div>
  );
}

/**
 * /fileManager: a user's stored files (uploads and what was made from them) with their sizes, dates
 * and jobs, to download or delete, and their storage against their quota. Administrators with
 * fileManager:quota also set each user's quota.
 */
export function FileManager() {
  const { t } = useTranslation(NS);
  const api = useApi();
  const notify = useNotify();
  const permissions = usePermission();
  const { navigate } = usePlatform();
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [refresh, setRefresh] = useState(0);
  const [usage, setUsage] = useState<Usage | null>(null);
  const [deleting, setDeleting] = useState<StoredRow[] | null>(null);
  const [selected, setSelected] = useState<StoredRow[]>([]);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    async (q: PageQuery) => {
      api.get<Usage>('/fileManager/usage', { silent: true }).then(setUsage, () => undefined);
      const sortBy = q.sortBy && ['name', 'size', 'createdAt'].includes(q.sortBy) ? q.sortBy : undefined;
      const r = await api.get<{ records: StoredRow[]; total: number }>('/fileManager/list', { params: { pageNum: q.page, pageSize: q.pageSize, ...filters, ...(sortBy ? { sortBy, sortOrder: q.sortOrder ?? 'desc' } : {}) }, silent: true });
      return { rows: r.records, total: r.total };
    },
    [api, filters],
  );

  const columns: PagedColumn<StoredRow>[] = [
    { key: 'name', title: t('name'), sortable: true, render: (r) => <span data-testid={`stored-${r.item}`}>{r.name}</span> },
    { key: 'kind', title: t('fm.kind'), render: (r) => <Tag minimal>{t(`fm.kinds.${r.kind}`)}</Tag> },
    { key: 'size', title: t('size'), sortable: true, render: (r) => formatSize(r.size) },
    { key: 'createdAt', title: t('fm.date'), sortable: true, render: (r) => formatDate(r.createdAt) },
    {
      key: 'job',
      title: t('fm.job'),
      render: (r) => (
        <a role="link" onClick={() => navigate(r.jobType === 'document' ? `/fileView?id=${r.jobId}` : JOB_PAGE[r.jobType])}>
          {t(`fm.jobs.${r.jobType}`)} #{r.jobId} · {r.jobName}
        </a>
      ),
    },
    {
      key: 'actions',
      title: t('actions'),
      render: (r) => (
        <ButtonGroup minimal>
          <Tooltip content={t('download')}>
            <Button icon="download" data-testid={`stored-download-${r.item}`} aria-label={t('download')} onClick={() => void download(api, `/fileManager/download?item=${encodeURIComponent(r.item)}`, r.name).catch((e: ApiErrorInfo) => notify.error(e.msg))} />
          </Tooltip>
          <Tooltip content={t('delete')}>
            <Button icon="trash" intent={Intent.DANGER} data-testid={`stored-delete-${r.item}`} aria-label={t('delete')} onClick={() => setDeleting([r])} />
          </Tooltip>
        </ButtonGroup>
      ),
    },
  ];

  const whole = (deleting ?? []).some((r) => r.kind === 'source' || r.kind === 'archive' || r.kind === 'conversionSource');
  const mine = (
    <div style={{ display: 'grid', gap: 10 }}>
      <UsageBar usage={usage} />
      <SearchBar
        fields={[
          { name: 'name', label: t('name') },
          { name: 'kind', label: t('fm.kind'), type: 'select', options: KINDS.map((k) => ({ value: k, label: t(`fm.kinds.${k}`) })) },
        ]}
        onSearch={setFilters}
        actions={selected.length > 0 ? <Button icon="trash" intent={Intent.DANGER} text={t('deleteSelected', { n: selected.length })} onClick={() => setDeleting(selected)} /> : undefined}
      />
      {error && <Callout intent={Intent.DANGER}>{error}</Callout>}
      <PagedTable<StoredRow> testId="stored" columns={columns} rowKey={(r) => r.item} load={load} reloadKey={JSON.stringify(filters)} refreshKey={refresh} selectable onSelectionChange={(_, rows) => setSelected(rows)} emptyText={t('fm.empty')} />
      <ConfirmDialog
        isOpen={deleting !== null}
        title={t('fm.deleteTitle')}
        message={whole ? t('fm.deleteWhole') : t('fm.deletePart')}
        count={deleting?.length}
        items={deleting?.map((r) => r.name)}
        intent="danger"
        confirmText={t('delete')}
        onConfirm={async () => {
          try {
            await api.delete('/fileManager/delete', { params: { items: deleting!.map((r) => r.item).join(',') } });
            setError(null);
          } catch (e) {
            setError((e as ApiErrorInfo).msg);
          }
          setDeleting(null);
          setSelected([]);
          setRefresh((n) => n + 1);
        }}
        onClose={() => setDeleting(null)}
      />
    </div>
  );

  return (
    <div data-testid="file-manager" style={{ padding: 16, display: 'grid', gap: 12 }}>
      <PageHeader title={t('fileManagerTitle')} />
      {permissions.hasButton('fileManager:quota') ? (
        <Tabs id="file-manager-tabs" renderActiveTabPanelOnly>
          <Tab id="mine" title={t('fm.myFiles')} panel={mine} />
          <Tab id="quotas" title={t('fm.quotas')} panel={<Quotas />} />
        </Tabs>
      ) : (
        mine
      )}
    </div>
  );
}
