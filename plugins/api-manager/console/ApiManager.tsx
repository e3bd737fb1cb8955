import { Button } from '@blueprintjs/core';
import { useState } from 'react';
import {
  PageHeader,
  ConfirmDialog,
  PagedTable,
  SearchBar,
  StatusTag,
  recordsLoader,
  useApi,
  useNotify,
  usePermission,
  useTranslation,
  type PagedColumn,
} from '@linguaport/sdk/console';
import { formatDate } from '@linguaport/sdk/shared';
import type { ApiKeyRow } from '../server/index.js';

export function ApiManager() {
  const { t } = useTranslation();
  const api = useApi();
  const notify = useNotify();
  const perms = usePermission();
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [refresh, setRefresh] = useState(0);
  const [resetting, setResetting] = useState<ApiKeyRow | null>(null);

  const load = recordsLoader<ApiKeyRow>(api, '/apiManager/list', filters);

  // The server enforces the 24-hour limit; the button only reflects it.
  const waiting = (r: ApiKeyRow) => !!r.nextResetAt && new Date(r.nextResetAt).getTime() > Date.now();

  async function reset() {
    await api.get(`/user/updateApiKey/${resetting!.id}`, { silent: true });
    notify.success(t('resetDone', { name: resetting!.username }));
    setResetting(null);
    setRefresh((n) => n + 1);
  }

  const columns: PagedColumn<ApiKeyRow>[] = [
    { key: 'username', title: t('username') },
    { key: 'realName', title: t('realName') },
    { key: 'hasKey', title: t('status'), render: (r) => <StatusTag value={String(r.hasKey)} states={{ true: { label: t('hasKey'), intent: 'success' }, false: { label: t('noKey') } }} /> },
    { key: 'maskedKey', title: t('key'), render: (r) => <code>{r.maskedKey ?? '—'}</code> },
    { key: 'updatedAt', title: t('updatedAt'), render: (r) => (r.updatedAt ? formatDate(r.updatedAt) : '—') },
    { key: 'nextResetAt', title: t('nextResetAt'), render: (r) => (waiting(r) ? formatDate(r.nextResetAt) : t('now')) },
    { key: 'lastUsedAt', title: t('lastUsedAt'), render: (r) => (r.lastUsedAt ? formatDate(r.lastUsedAt) : t('neverUsed')) },
    {
      key: 'actions',
      title: t('actions'),
      render: (r) => perms.hasButton('apiKey:reset') && (
        <Button size="small" variant="minimal" intent="warning" text={t('reset')} disabled={waiting(r)} title={waiting(r) ? t('waitUntil', { time: formatDate(r.nextResetAt) }) : undefined} onClick={() => setResetting(r)} data-testid={`reset-${r.username}`} />
      ),
    },
  ];

  return (
    <div data-testid="api-manager-view" style={{ padding: 16 }}>
      <PageHeader title={t('title')} />
      <SearchBar
        fields={[
          { name: 'username', label: t('username') },
          { name: 'hasKey', label: t('status'), type: 'select', options: [{ value: '1', label: t('hasKey') }, { value: '0', label: t('noKey') }] },
        ]}
        onSearch={setFilters}
      />
      <PagedTable<ApiKeyRow> columns={columns} rowKey={(r) => r.id} load={load} reloadKey={filters} refreshKey={refresh} testId="api-key-row" />
      <ConfirmDialog
        isOpen={resetting !== null}
        title={t('resetTitle')}
        message={t('resetMessage', { name: resetting?.username ?? '' })}
        count={1}
        intent="warning"
        confirmText={t('reset')}
        onConfirm={reset}
        onClose={() => setResetting(null)}
      />
    </div>
  );
}
