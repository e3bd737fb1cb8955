import { Button } from '@blueprintjs/core';
import { useState } from 'react';
import { definePlugin, FormDialog, PageHeader, PagedTable, recordsLoader, useApi, useNotify, usePermission, useTranslation, type PagedColumn } from '@linguaport/sdk/console';
import { formatDate } from '@linguaport/sdk/shared';
import { itemFields, type Item } from '../shared/schemas.js';

/**
 * The __ID__ screen: a paged list of items and an add dialog. The kit's pieces give the loading,
 * empty and error states, paging and the form's checks (the same schema the server applies).
 */
export function __PASCAL__() {
  const { t } = useTranslation();
  const api = useApi();
  const notify = useNotify();
  const permissions = usePermission();
  const [adding, setAdding] = useState(false);
  const [refresh, setRefresh] = useState(0);

  const load = recordsLoader<Item>(api, '/__ID__/list', {});
  const columns: PagedColumn<Item>[] = [
    { key: 'name', title: t('name') },
    { key: 'createdAt', title: t('createdAt'), render: (r) => formatDate(r.createdAt) },
  ];

  async function add(values: Record<string, unknown>) {
    const item = await api.post<Item>('/__ID__/add', values, { silent: true });
    notify.success(t('added', { name: item.name }));
    setAdding(false);
    setRefresh((n) => n + 1);
  }

  return (
    <div data-testid="__ID__-view" style={{ padding: 16 }}>
      <PageHeader
        title={t('heading')}
        // The button shows only with the permission; the server checks the same key on the call.
        actions={permissions.hasButton('__ID__:add') && <Button intent="primary" icon="add" text={t('add')} onClick={() => setAdding(true)} data-testid="__ID__-add" />}
      />
      <PagedTable<Item> columns={columns} rowKey={(r) => r.id} load={load} refreshKey={refresh} emptyText={t('empty')} testId="__ID__-row" />
      <FormDialog isOpen={adding} title={t('add')} fields={[{ name: 'name', label: t('name'), required: true }]} schema={itemFields} onSubmit={add} onClose={() => setAdding(false)} />
    </div>
  );
}

export default definePlugin({ id: '__ID__', views: { __PASCAL__ } });
