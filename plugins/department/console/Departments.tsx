import { Button, ButtonGroup, Tag } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import {
  ConfirmDialog,
  FormDialog,
  PageHeader,
  PagedTable,
  SearchBar,
  recordsLoader,
  rowCalls,
  useApi,
  useCrudScreen,
  usePermission,
  useTranslation,
  type FormValues,
  type PagedColumn,
} from '@linguaport/sdk/console';
import { formatDate } from '@linguaport/sdk/shared';
import { departmentSchema, type DepartmentRow } from '../shared/schemas.js';

interface Option { id: number; name?: string; username?: string; realName?: string | null }

export function Departments() {
  const { t } = useTranslation();
  const api = useApi();
  const perms = usePermission();
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [selected, setSelected] = useState<DepartmentRow[]>([]);
  const crud = useCrudScreen<DepartmentRow | 'new', DepartmentRow[]>();
  const { editing, deleting } = crud;
  const [roles, setRoles] = useState<Option[]>([]);
  const [users, setUsers] = useState<Option[]>([]);

  useEffect(() => {
    if (editing === null) return;
    api.get<Option[]>('/role/list', { silent: true }).then(setRoles, () => setRoles([]));
    api.get<Option[]>('/user/getAllUser', { silent: true }).then(setUsers, () => setUsers([]));
  }, [api, editing]);

  const load = recordsLoader<DepartmentRow>(api, '/department/getDepartmentByPage', filters);

  const calls = rowCalls(api, '/department', { silent: true });
  const save = (values: FormValues) => crud.save(async (row) => {
    await calls.save(row === 'new' ? null : row.id, values);
    return t('saved');
  });
  const remove = () => crud.remove(async (rows) => t('deletedN', { count: (await calls.remove(rows.map((r) => r.id))).deleted }));

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
          {perms.hasButton('department:edit') && <Button size="small" text={t('edit')} onClick={() => crud.startEdit(r)} />}
          {perms.hasButton('department:delete') && <Button size="small" intent="danger" text={t('delete')} onClick={() => crud.askDelete([r])} />}
        </ButtonGroup>
      ),
    },
  ];

  return (
    <div data-testid="department-view" style={{ padding: 16 }}>
      <PageHeader
        title={t('title')}
        actions={perms.hasButton('department:add') && <Button intent="primary" icon="plus" text={t('add')} onClick={() => crud.startEdit('new')} data-testid="department-add" />}
      />
      <SearchBar
        fields={[{ name: 'name', label: t('name') }, { name: 'code', label: t('code') }]}
        onSearch={setFilters}
        actions={perms.hasButton('department:delete') && selected.length > 0 && <Button intent="danger" text={t('deleteSelected', { count: selected.length })} onClick={() => crud.askDelete(selected)} />}
      />
      <PagedTable<DepartmentRow> columns={columns} rowKey={(r) => r.id} load={load} reloadKey={filters} refreshKey={crud.refreshKey} selectable onSelectionChange={(_k, rows) => setSelected(rows)} testId="department-row" />
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
        onClose={crud.stopEditing}
      />
      <ConfirmDialog
        isOpen={deleting !== null}
        title={t('deleteTitle')}
        message={t('deleteMessage')}
        count={deleting?.length}
        items={deleting?.map((r) => `${r.name} (${r.code})`)}
        onConfirm={remove}
        onClose={crud.stopDeleting}
      />
    </div>
  );
}
