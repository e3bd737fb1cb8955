import { Button, ButtonGroup, Tag } from '@blueprintjs/core';
import { useCallback, useState } from 'react';
import {
  ConfirmDialog,
  FormDialog,
  PagedTable,
  SearchBar,
  useApi,
  useNotify,
  usePermission,
  useTranslation,
  type FormValues,
  type PagedColumn,
  type PageQuery,
} from '@linguaport/sdk/console';
import { formatDate } from '@linguaport/sdk/shared';
import { roleSchema, type RoleRow } from '../shared/schemas.js';
import { GrantDialog } from './GrantDialog.js';

export function Roles() {
  const { t } = useTranslation();
  const api = useApi();
  const notify = useNotify();
  const perms = usePermission();
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [refresh, setRefresh] = useState(0);
  const [selected, setSelected] = useState<RoleRow[]>([]);
  const [editing, setEditing] = useState<RoleRow | 'new' | null>(null);
  const [deleting, setDeleting] = useState<RoleRow[] | null>(null);
  const [granting, setGranting] = useState<RoleRow | null>(null);
  const again = () => setRefresh((n) => n + 1);

  const load = useCallback(
    (q: PageQuery) => api.get<{ records: RoleRow[]; total: number }>('/role/getRoleByPage', { params: { ...filters, pageNum: q.page, pageSize: q.pageSize }, silent: true })
      .then((p) => ({ rows: p.records, total: p.total })),
    [api, filters],
  );

  async function save(values: FormValues) {
    if (editing === 'new') await api.post('/role/add', values, { silent: true });
    else await api.put('/role/update', { ...values, id: (editing as RoleRow).id }, { silent: true });
    notify.success(t('saved'));
    setEditing(null);
    again();
  }

  async function remove() {
    const res = await api.delete<{ deleted: number }>('/role/delete', { params: { ids: deleting!.map((r) => r.id).join(',') }, silent: true });
    notify.success(t('deletedN', { count: res.deleted }));
    setDeleting(null);
    again();
  }

  const columns: PagedColumn<RoleRow>[] = [
    { key: 'name', title: t('name'), render: (r) => <>{r.name} {r.isSuper && <Tag minimal intent="primary">{t('super')}</Tag>} {r.isDefault && <Tag minimal>{t('default')}</Tag>}</> },
    { key: 'description', title: t('description') },
    { key: 'userCount', title: t('userCount') },
    { key: 'creatorName', title: t('creator') },
    { key: 'createdAt', title: t('createdAt'), render: (r) => formatDate(r.createdAt) },
    {
      key: 'actions',
      title: t('actions'),
      render: (r) => (
        <ButtonGroup variant="minimal">
          {perms.hasButton('role:grant') && <Button size="small" text={t('grant')} onClick={() => setGranting(r)} data-testid={`grant-role-${r.name}`} />}
          {perms.hasButton('role:edit') && <Button size="small" text={t('edit')} onClick={() => setEditing(r)} />}
          {perms.hasButton('role:delete') && <Button size="small" intent="danger" text={t('delete')} onClick={() => setDeleting([r])} />}
        </ButtonGroup>
      ),
    },
  ];

  return (
    <div data-testid="role-view" style={{ padding: 16 }}>
      <SearchBar
        fields={[{ name: 'name', label: t('name') }]}
        onSearch={setFilters}
        actions={
          <>
            {perms.hasButton('role:add') && <Button intent="primary" icon="plus" text={t('add')} onClick={() => setEditing('new')} data-testid="role-add" />}
            {perms.hasButton('role:delete') && selected.length > 0 && <Button intent="danger" text={t('deleteSelected', { count: selected.length })} onClick={() => setDeleting(selected)} />}
          </>
        }
      />
      <PagedTable<RoleRow> columns={columns} rowKey={(r) => r.id} load={load} reloadKey={filters} refreshKey={refresh} selectable onSelectionChange={(_k, rows) => setSelected(rows)} testId="role-row" />
      <FormDialog
        isOpen={editing !== null}
        title={editing === 'new' ? t('add') : t('edit')}
        fields={[
          { name: 'name', label: t('name'), required: true },
          { name: 'description', label: t('description'), type: 'textarea' },
        ]}
        schema={roleSchema}
        initialValues={editing && editing !== 'new' ? { name: editing.name, description: editing.description ?? '' } : {}}
        onSubmit={save}
        onClose={() => setEditing(null)}
      />
      <ConfirmDialog
        isOpen={deleting !== null}
        title={t('deleteTitle')}
        message={t('deleteMessage')}
        count={deleting?.length}
        items={deleting?.map((r) => r.name)}
        onConfirm={remove}
        onClose={() => setDeleting(null)}
      />
      <GrantDialog role={granting} onClose={() => setGranting(null)} />
    </div>
  );
}
