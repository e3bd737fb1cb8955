import { Button, ButtonGroup, Tag } from '@blueprintjs/core';
import { useState } from 'react';
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
import { roleSchema, type RoleRow } from '../shared/schemas.js';
import { GrantDialog } from './GrantDialog.js';

export function Roles() {
  const { t } = useTranslation();
  const api = useApi();
  const perms = usePermission();
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [selected, setSelected] = useState<RoleRow[]>([]);
  const crud = useCrudScreen<RoleRow | 'new', RoleRow[]>();
  const { editing, deleting } = crud;
  const [granting, setGranting] = useState<RoleRow | null>(null);

  const load = recordsLoader<RoleRow>(api, '/role/getRoleByPage', filters);

  const calls = rowCalls(api, '/role', { silent: true });
  const save = (values: FormValues) => crud.save(async (row) => {
    await calls.save(row === 'new' ? null : row.id, values);
    return t('saved');
  });
  const remove = () => crud.remove(async (rows) => t('deletedN', { count: (await calls.remove(rows.map((r) => r.id))).deleted }));

  const columns: PagedColumn<RoleRow>[] = [
    { key: 'name', title: t('name'), render: (r) => <>{r.name} {r.isSuper && <Tag minimal intent="primary">{t('super')}</Tag>} {r.isDefault && <Tag minimal>{t('default')}</Tag>} {r.builtIn && !r.isSuper && !r.isDefault && <Tag minimal>{t('builtIn')}</Tag>}</> },
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
          {perms.hasButton('role:edit') && <Button size="small" text={t('edit')} onClick={() => crud.startEdit(r)} />}
          {/* Built-in roles cannot be deleted (the server refuses): no button that can only fail. */}
          {perms.hasButton('role:delete') && !r.builtIn && <Button size="small" intent="danger" text={t('delete')} onClick={() => crud.askDelete([r])} />}
        </ButtonGroup>
      ),
    },
  ];

  return (
    <div data-testid="role-view" style={{ padding: 16 }}>
      <PageHeader
        title={t('title')}
        actions={perms.hasButton('role:add') && <Button intent="primary" icon="plus" text={t('add')} onClick={() => crud.startEdit('new')} data-testid="role-add" />}
      />
      <SearchBar
        fields={[{ name: 'name', label: t('name') }]}
        onSearch={setFilters}
        actions={perms.hasButton('role:delete') && selected.length > 0 && <Button intent="danger" text={t('deleteSelected', { count: selected.length })} onClick={() => crud.askDelete(selected)} />}
      />
      <PagedTable<RoleRow> columns={columns} rowKey={(r) => r.id} load={load} reloadKey={filters} refreshKey={crud.refreshKey} selectable onSelectionChange={(_k, rows) => setSelected(rows)} testId="role-row" />
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
        onClose={crud.stopEditing}
      />
      <ConfirmDialog
        isOpen={deleting !== null}
        title={t('deleteTitle')}
        message={t('deleteMessage')}
        count={deleting?.length}
        items={deleting?.map((r) => r.name)}
        onConfirm={remove}
        onClose={crud.stopDeleting}
      />
      <GrantDialog role={granting} onClose={() => setGranting(null)} />
    </div>
  );
}
