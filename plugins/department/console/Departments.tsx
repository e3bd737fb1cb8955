import { Button, ButtonGroup, Tag } from '@blueprintjs/core';
import { useCallback, useEffect, useState } from 'react';
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
import { departmentSchema, type DepartmentRow } from '../shared/schemas.js';

interface Option { id: number; name?: string; username?: string; realName?: string | null }

export function Departments() {
  const { t } = useTranslation();
  const api = useApi();
  const notify = useNotify();
  const perms = usePermission();
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [refresh, setRefresh] = useState(0);
  const [selected, setSelected] = useState<DepartmentRow[]>([]);
  const [editing, setEditing] = useState<DepartmentRow | 'new' | null>(null);
  const [deleting, setDeleting] = useState<DepartmentRow[] | null>(null);
  const [roles, setRoles] = useState<Option[]>([]);
  const [users, setUsers] = useState<Option[]>([]);
  const again = () => setRefresh((n) => n + 1);

  useEffect(() => {
    if (editing === null) return;
    api.get<Option[]>('/role/list', { silent: true }).then(setRoles, () => setRoles([]));
    api.get<Option[]>('/user/getAllUser', { silent: true }).then(setUsers, () => setUsers([]));
  }, [api, editing]);

  const load = useCallback(
    (q: PageQuery) => api.get<{ records: DepartmentRow[]; total: number }>('/department/getDepartmentByPage', { params: { ...filters, pageNum: q.page, pageSize: q.pageSize }, silent: true })
      .then((p) => ({ rows: p.records, total: p.total })),
    [api, filters],
  );

  async function save(values: FormValues) {
    if (editing === 'new') await api.post('/department/add', values, { silent: true });
    else await api.put('/department/update', { ...values, id: (editing as DepartmentRow).id }, { silent: true });
    notify.success(t('saved'));
    setEditing(null);
    again();
  }

  async function remove() {
    const res = await api.delete<{ deleted: number }>('/department/delete', { params: { ids: deleting!.map((r) => r.id).join(',') }, silent: true });
    notify.success(t('deletedN', { count: res.deleted }));
    setDeleting(null);
    again();
  }

  const columns: PagedColumn<DepartmentRow>[] = [
    { key: 'name', title: t('name'), render: (r) => <>{r.name} {r.isDefault && <Tag minimal>{t('default')}</Tag>}</> },
    { key: 'code', title: t('code') },
    { key: 'description', title: t('description') },
    { key: 'headName', title: t('head') },
    { key: 'roles', title: t('roles'), render: (r) => r.roles.map((x) => x.name).join(', ') },
    { key: 'userCount', title: t('userCount') },
    { key: 'creatorName', title: t('creator') },
    { key: 'createdAt', title: t('createdAt'), render: (r) => formatDate(r.createdAt) },
    {
      key: 'actions',
      title: t('actions'),
      render: (r) => (
        <ButtonGroup variant="minimal">
          {perms.hasButton('department:edit') && <Button size="small" text={t('edit')} onClick={() => setEditing(r)} />}
          {perms.hasButton('department:delete') && <Button size="small" intent="danger" text={t('delete')} onClick={() => setDeleting([r])} />}
        </ButtonGroup>
      ),
    },
  ];

  return (
    <div data-testid="department-view" style={{ padding: 16 }}>
      <SearchBar
        fields={[{ name: 'name', label: t('name') }, { name: 'code', label: t('code') }]}
        onSearch={setFilters}
        actions={
          <>
            {perms.hasButton('department:add') && <Button intent="primary" icon="plus" text={t('add')} onClick={() => setEditing('new')} data-testid="department-add" />}
            {perms.hasButton('department:delete') && selected.length > 0 && <Button intent="danger" text={t('deleteSelected', { count: selected.length })} onClick={() => setDeleting(selected)} />}
          </>
        }
      />
      <PagedTable<DepartmentRow> columns={columns} rowKey={(r) => r.id} load={load} reloadKey={filters} refreshKey={refresh} selectable onSelectionChange={(_k, rows) => setSelected(rows)} testId="department-row" />
      <FormDialog
        isOpen={editing !== null}
        title={editing === 'new' ? t('add') : t('edit')}
        fields={[
          { name: 'name', label: t('name'), required: true },
          { name: 'code', label: t('code'), required: true, helperText: t('codeHint') },
          { name: 'description', label: t('description'), type: 'textarea' },
          { name: 'headUserId', label: t('head'), type: 'select', options: users.map((u) => ({ value: u.id, label: u.realName ? `${u.realName} (${u.username})` : u.username ?? '' })) },
          { name: 'roleIds', label: t('roles'), type: 'multiselect', options: roles.map((r) => ({ value: r.id, label: r.name ?? '' })) },
        ]}
        schema={departmentSchema}
        initialValues={editing && editing !== 'new'
          ? { name: editing.name, code: editing.code, description: editing.description ?? '', headUserId: editing.headUserId ?? undefined, roleIds: editing.roles.map((r) => r.id) }
          : { roleIds: [] }}
        onSubmit={save}
        onClose={() => setEditing(null)}
      />
      <ConfirmDialog
        isOpen={deleting !== null}
        title={t('deleteTitle')}
        message={t('deleteMessage')}
        count={deleting?.length}
        items={deleting?.map((r) => `${r.name} (${r.code})`)}
        onConfirm={remove}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}
