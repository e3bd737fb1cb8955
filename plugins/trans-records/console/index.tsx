import { useCallback, useEffect, useState } from 'react';
import { Button, Callout, HTMLTable, InputGroup, Intent } from '@blueprintjs/core';
import { definePlugin, useApi, usePermission, useTranslation, type ApiErrorInfo } from '@linguaport/sdk/console';
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

const PAGE = 20;

/** Usage records (/transRecords): characters and documents per user, filtered, exportable. */
function TransRecords() {
  const { t, i18n } = useTranslation('transRecords');
  const api = useApi();
  const permissions = usePermission();
  const [filters, setFilters] = useState({ username: '', from: '', to: '' });
  const [applied, setApplied] = useState(filters);
  const [pageNum, setPageNum] = useState(1);
  const [data, setData] = useState<{ records: UsageRow[]; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const params = useCallback(() => Object.fromEntries(Object.entries(applied).filter(([, v]) => v !== '')), [applied]);

  useEffect(() => {
    api.get<{ records: UsageRow[]; total: number }>('/transRecords/list', { params: { ...params(), pageNum, pageSize: PAGE }, silent: true }).then(
      (r) => { setData(r); setError(null); },
      (err: ApiErrorInfo) => setError(err.msg),
    );
  }, [api, pageNum, params]);

  const exportXlsx = async () => {
    try {
      const blob = await api.get<Blob>('/transRecords/export', { params: { ...params(), lang: i18n.language.startsWith('zh') ? 'zh-CN' : 'en-US' }, responseType: 'blob', silent: true });
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = 'usage-records.xlsx';
      a.click();
      URL.revokeObjectURL(url);
    } catch (err) {
      setError((err as ApiErrorInfo).msg);
    }
  };

  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE)) : 1;
  return (
    <div data-testid="trans-records" style={{ padding: 16, display: 'grid', gap: 12 }}>
      <form
        style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}
        onSubmit={(e) => { e.preventDefault(); setPageNum(1); setApplied(filters); }}
      >
        <InputGroup aria-label={t('user')} placeholder={t('user')} value={filters.username} onChange={(e) => setFilters({ ...filters, username: e.currentTarget.value })} />
        <InputGroup aria-label={t('from')} type="date" value={filters.from} onChange={(e) => setFilters({ ...filters, from: e.currentTarget.value })} />
        <InputGroup aria-label={t('to')} type="date" value={filters.to} onChange={(e) => setFilters({ ...filters, to: e.currentTarget.value })} />
        <Button type="submit" icon="search" text={t('search')} />
        {permissions.hasButton('transRecords:export') && <Button icon="export" data-testid="export" onClick={exportXlsx} text={t('export')} />}
      </form>
      {error && <Callout intent={Intent.DANGER}>{error}</Callout>}
      <div style={{ overflowX: 'auto' }}>
        <HTMLTable striped compact>
          <thead>
            <tr>
              <th>{t('username')}</th>
              <th>{t('realName')}</th>
              <th>{t('total')}</th>
              <th>{t('textApi')}</th>
              <th>{t('documentChars')}</th>
              <th>{t('documents')}</th>
              <th>{t('lastUse')}</th>
            </tr>
          </thead>
          <tbody>
            {data?.records.map((r) => (
              <tr key={r.userId} data-testid={`usage-${r.username}`}>
                <td>{r.username}</td>
                <td>{r.realName ?? ''}</td>
                <td data-testid="usage-total">{r.totalCharacters.toLocaleString(i18n.language)}</td>
                <td data-testid="usage-text-api">{r.textApiCharacters.toLocaleString(i18n.language)}</td>
                <td>{r.documentCharacters.toLocaleString(i18n.language)}</td>
                <td>{r.documents}</td>
                <td>{r.lastUsedAt ? formatDate(r.lastUsedAt) : ''}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
      {data && data.records.length === 0 && <Callout>{t('empty')}</Callout>}
      <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
        <Button icon="chevron-left" disabled={pageNum <= 1} onClick={() => setPageNum(pageNum - 1)} aria-label={t('previous')} />
        <span>{t('page', { page: pageNum, pages, total: data?.total ?? 0 })}</span>
        <Button icon="chevron-right" disabled={pageNum >= pages} onClick={() => setPageNum(pageNum + 1)} aria-label={t('next')} />
      </div>
    </div>
  );
}

export default definePlugin({ id: 'trans-records', views: { TransRecords, RecentUsageTile } });
