import { Button } from '@blueprintjs/core';
import { useEffect, useMemo, useState } from 'react';
import { PageHeader, PagedTable, recordsLoader, SearchBar, StatusTag, useApi, usePermission, useTranslation, type PagedColumn } from '@linguaport/sdk/console';
import { formatDate } from '@linguaport/sdk/shared';
import type { OperationLogRow } from '../server/index.js';

/** Form `datetime-local` values become ISO times with the browser's offset. */
function toQuery(filters: Record<string, string>): Record<string, string> {
  const out = { ...filters };
  for (const k of ['startTime', 'endTime']) if (out[k]) out[k] = new Date(out[k]!).toISOString();
  return out;
}

export function OperationLog() {
  const { t } = useTranslation();
  const api = useApi();
  const perms = usePermission();
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [modules, setModules] = useState<{ module: string; name: string }[]>([]);
  const [exporting, setExporting] = useState(false);

  useEffect(() => {
    api.get<{ module: string; name: string }[]>('/operationLog/moduleNames', { silent: true }).then(setModules, () => setModules([]));
  }, [api]);

  const load = useMemo(() => recordsLoader<OperationLogRow>(api, '/operationLog/list', toQuery(filters)), [api, filters]);

  async function exportXlsx() {
    setExporting(true);
    try {
      const blob = await api.get<Blob>('/operationLog/export', { params: toQuery(filters), responseType: 'blob' });
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = 'operation-log.xlsx';
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } finally {
      setExporting(false);
    }
  }

  const columns: PagedColumn<OperationLogRow>[] = [
    { key: 'createdAt', title: t('time'), render: (r) => formatDate(r.createdAt) },
    { key: 'module', title: t('module'), render: (r) => r.moduleName },
    // The line is the action's name; its route is there on hover for whoever needs it.
    { key: 'message', title: t('message'), render: (r) => <span title={`${r.method} ${r.url}`}>{r.message}</span> },
    { key: 'operatorName', title: t('operator') },
    { key: 'outcome', title: t('outcome'), render: (r) => <StatusTag value={r.outcome} states={{ success: { label: t('success'), intent: 'success' }, failure: { label: t('failure'), intent: 'danger' } }} /> },
    { key: 'ip', title: t('ip') },
  ];

  return (
    <div data-testid="operation-log-view" style={{ padding: 16 }}>
      <PageHeader title={t('title')} />
      <SearchBar
        fields={[
          { name: 'module', label: t('module'), type: 'select', options: modules.map((m) => ({ value: m.module, label: m.name })) },
          { name: 'operator', label: t('operator') },
          { name: 'outcome', label: t('outcome'), type: 'select', options: [{ value: 'success', label: t('success') }, { value: 'failure', label: t('failure') }] },
          { name: 'startTime', label: t('from'), type: 'datetime' },
          { name: 'endTime', label: t('to'), type: 'datetime' },
        ]}
        onSearch={setFilters}
        actions={perms.hasButton('operationLog:export') && <Button icon="export" text={t('export')} loading={exporting} onClick={() => void exportXlsx()} data-testid="oplog-export" />}
      />
      <PagedTable<OperationLogRow> columns={columns} rowKey={(r) => r.id} load={load} reloadKey={filters} defaultPageSize={20} testId="oplog-row" />
    </div>
  );
}
