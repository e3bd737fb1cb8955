import { useMemo, useState } from 'react';
import { Button, Callout, Intent } from '@blueprintjs/core';
import { definePlugin, PagedTable, PageHeader, recordsLoader, SearchBar, useApi, usePermission, useTranslation, type ApiErrorInfo, type PagedColumn } from '@linguaport/sdk/console';
import { formatDate } from '@linguaport/sdk/shared';
import { RecentUsageTile } from './RecentUsageTile.js';

interface UsageRow {
  userId: number;
  username: string;
  realName: string | null;
  totalCharacters: number;
  textApiCharacters: number;
  documentCharacters: number;
  documents: number;
  lastUsedAt: string | null;
}

/** Usage records (/transRecords): characters and documents per user, filtered, exportable. */
function TransRecords() {
  const { t, i18n } = useTranslation('transRecords');
  const api = useApi();
  const permissions = usePermission();
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const load = useMemo(() => recordsLoader<UsageRow>(api, '/transRecords/list', filters), [api, filters]);
  const number = (n: number) => n.toLocaleString(i18n.language);

  const exportXlsx = async () => {
    try {
      const blob = await api.get<Blob>('/transRecords/export', { params: { ...filters, lang: i18n.language.startsWith('zh') ? 'zh-CN' : 'en-US' }, responseType: 'blob', silent: true });
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = 'usage-records.xlsx';
      a.click();
      URL.revokeObjectURL(url);
      setError(null);
    } catch (err) {
      setError((err as ApiErrorInfo).msg);
    }
  };

  const columns: PagedColumn<UsageRow>[] = [
    { key: 'username', title: t('username') },
    { key: 'realName', title: t('realName'), render: (r) => r.realName ?? '' },
    { key: 'totalCharacters', title: t('total'), render: (r) => <span data-testid="usage-total">{number(r.totalCharacters)}</span> },
    { key: 'textApiCharacters', title: t('textApi'), render: (r) => <span data-testid="usage-text-api">{number(r.textApiCharacters)}</span> },
    { key: 'documentCharacters', title: t('documentChars'), render: (r) => number(r.documentCharacters) },
    { key: 'documents', title: t('documents') },
    { key: 'lastUsedAt', title: t('lastUse'), render: (r) => (r.lastUsedAt ? formatDate(r.lastUsedAt) : '') },
  ];

  return (
    <div data-testid="trans-records" style={{ padding: 16 }}>
      <PageHeader
        title={t('title')}
        actions={permissions.hasButton('transRecords:export') && <Button icon="export" data-testid="export" onClick={() => void exportXlsx()} text={t('export')} />}
      />
      <SearchBar
        fields={[
          { name: 'username', label: t('user') },
          { name: 'from', label: t('from'), type: 'date' },
          { name: 'to', label: t('to'), type: 'date' },
        ]}
        onSearch={setFilters}
      />
      {error && <Callout intent={Intent.DANGER} style={{ marginBottom: 12 }}>{error}</Callout>}
      <PagedTable<UsageRow> columns={columns} rowKey={(r) => r.username} load={load} reloadKey={filters} defaultPageSize={20} emptyText={t('empty')} testId="usage" />
    </div>
  );
}

export default definePlugin({ id: 'trans-records', views: { TransRecords, RecentUsageTile } });
