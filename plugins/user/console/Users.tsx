import { Button, ButtonGroup, Dialog, DialogBody, HTMLTable, Tag } from '@blueprintjs/core';
import { useEffect, useMemo, useState } from 'react';
import {
  ConfirmDialog,
  FormDialog,
  PageHeader,
  PagedTable,
  SearchBar,
  StatusTag,
  UploadButton,
  recordsLoader,
  useApi,
  useCrudScreen,
  useNotify,
  usePermission,
  useTranslation,
  type ApiErrorInfo,
  type FormField,
  type FormValues,
  type PagedColumn,
} from '@linguaport/sdk/console';
import { formatDate } from '@linguaport/sdk/shared';
import { PRIORITY_MAX, PRIORITY_MIN, addUserSchema, editUserFormSchema, type ImportReport, type UserRow } from '../shared/schemas.js';
import { isoToLocal, localToIso, saveBlob } from './download.js';

interface Option { id: number; name: string }

const WRAP = { overflowWrap: 'anywhere' } as const;

export function Users() {
  const { t } = useTranslation();
  const api = useApi();
  const notify = useNotify();
  const perms = usePermission();
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [selected, setSelected] = useState<UserRow[]>([]);
  const [departments, setDepartments] = useState<Option[]>([]);
  const [roles, setRoles] = useState<Option[]>([]);
  const crud = useCrudScreen<UserRow | 'new', UserRow[]>();
  const { editing, deleting } = crud;
  const [priorityMode, setPriorityMode] = useState<'users' | 'departments' | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);

  useEffect(() => {
    api.get<Option[]>('/department/list', { silent: true }).then(setDepartments, () => setDepartments([]));
    api.get<Option[]>('/role/list', { silent: true }).then(setRoles, () => setRoles([]));
  }, [api]);

  const load = recordsLoader<UserRow>(api, '/user/getAllUserByPage', filters);

  const priorityOptions = useMemo(() => Array.from({ length: PRIORITY_MAX - PRIORITY_MIN + 1 }, (_, i) => ({ value: PRIORITY_MIN + i, label: String(PRIORITY_MIN + i) })), []);
  const deptOptions = departments.map((d) => ({ value: d.id, label: d.name }));
  const roleOptions = roles.map((r) => ({ value: r.id, label: r.name }));

  const checkName = (id?: number) => async (value: unknown) => {
    if (typeof value !== 'string' || value.trim().length < 2) return null;
    const res = await api.post<{ available: boolean }>('/user/checkUserName', undefined, { params: { username: value.trim(), id }, silent: true }).catch(() => ({ available: true }));
    return res.available ? null : t('nameTaken');
  };

  const isNew = editing === 'new';
  const fields: FormField[] = [
    { name: 'username', label: t('username'), required: true, check: checkName(isNew || !editing ? undefined : editing.id) },
    { name: 'password', label: t('password'), type: 'password', required: isNew, helperText: isNew ? undefined : t('passwordKeep') },
    { name: 'confirmPassword', label: t('confirmPassword'), type: 'password', required: isNew },
    { name: 'realName', label: t('realName'), required: true },
    { name: 'employeeNo', label: t('employeeNo') },
    { name: 'email', label: t('email') },
    { name: 'phone', label: t('phone') },
    { name: 'departmentIds', label: t('departments'), type: 'multiselect', options: deptOptions, required: true },
    { name: 'roleIds', label: t('roles'), type: 'multiselect', options: roleOptions, required: true },
    { name: 'expiresAt', label: t('expiresAt'), type: 'datetime', helperText: t('expiresHint') },
    { name: 'priority', label: t('priority'), type: 'select', options: priorityOptions },
    { name: 'memo', label: t('memo'), type: 'textarea' },
  ];
  const initial: FormValues = editing && editing !== 'new'
    ? { ...editing, realName: editing.realName ?? '', email: editing.email ?? '', phone: editing.phone ?? '', employeeNo: editing.employeeNo ?? '', memo: editing.memo ?? '',
        departmentIds: editing.departments.map((d) => d.id), roleIds: editing.roles.map((r) => r.id), expiresAt: isoToLocal(editing.expiresAt), password: '', confirmPassword: '' }
    : { priority: PRIORITY_MIN, departmentIds: [], roleIds: [] };

  const save = (values: FormValues) => crud.save(async (row) => {
    const body = { ...values, expiresAt: localToIso(values.expiresAt) };
    if (row === 'new') await api.post('/user/add', body, { silent: true });
    else await api.put('/user/update', { ...body, id: row.id }, { silent: true });
    return t('saved');
  });

  async function setEnabled(rows: UserRow[], enable: boolean) {
    const res = await api.put<{ updated: number }>(`/user/updateIsUse/${enable ? 1 : 0}`, undefined, { params: { ids: rows.map((r) => r.id).join(',') } });
    notify.success(t(enable ? 'enabledN' : 'disabledN', { count: res.updated }));
    crud.reload();
  }

  async function examine(row: UserRow) {
    await api.get(`/user/examineUser/${row.id}`);
    notify.success(t('examined', { name: row.username }));
    crud.reload();
  }

  const remove = () => crud.remove(async (rows) => {
    const res = await api.delete<{ deleted: number }>('/userAndCat/delete', { params: { ids: rows.map((r) => r.id).join(',') }, silent: true });
    return t('deletedN', { count: res.deleted });
  });

  async function setPriority(values: FormValues) {
    const res = priorityMode === 'users'
      ? await api.put<{ updated: number }>('/user/translationPriorityByUserIds', { userIds: selected.map((r) => r.id), priority: values.priority }, { silent: true })
      : await api.put<{ updated: number }>('/user/translationPriorityByDepartmentIds', { departmentIds: values.departmentIds, priority: values.priority }, { silent: true });
    notify.success(t('priorityUpdated', { count: res.updated }));
    setPriorityMode(null);
    crud.reload();
  }

  async function upload(file: File, progress: (f: number) => void) {
    const form = new FormData();
    form.append('file', file);
    try {
      const result = await api.post<ImportReport>('/user/importUsers', form, { onUploadProgress: progress, silent: true });
      setReport(result);
      crud.reload();
    } catch (error) {
      notify.error((error as ApiErrorInfo).msg);
    }
  }

  async function template() {
    saveBlob(await api.get<Blob>('/user/importTemplate', { responseType: 'blob' }), 'user-import-template.xls');
  }

  const columns: PagedColumn<UserRow>[] = [
    // Long unbroken names (accounts, departments, roles) wrap inside their cells instead of widening the table.
    { key: 'username', title: t('username'), sortable: true, render: (r) => <span style={WRAP}>{r.username}</span> },
    { key: 'realName', title: t('realName'), sortable: true, render: (r) => <span style={WRAP}>{r.realName}</span> },
    { key: 'departments', title: t('departments'), render: (r) => <span style={WRAP}>{r.departments.map((d) => d.name).join(', ')}</span> },
    { key: 'roles', title: t('roles'), render: (r) => <span style={WRAP}>{r.roles.map((x) => x.name).join(', ')}</span> },
    { key: 'status', title: t('status'), render: (r) => <StatusTag value={r.status} states={{ checked: { label: t('checked'), intent: 'success' }, unchecked: { label: t('unchecked'), intent: 'warning' } }} /> },
    { key: 'isUse', title: t('isUse'), render: (r) => <StatusTag value={String(r.isUse)} states={{ true: { label: t('enabled'), intent: 'primary' }, false: { label: t('disabled'), intent: 'danger' } }} /> },
    { key: 'priority', title: <span title={t('priority')}>{t('priorityShort')}</span>, sortable: true },
    { key: 'expiresAt', title: t('expiresAt'), sortable: true, render: (r) => (r.expiresAt ? formatDate(r.expiresAt) : t('never')) },
    { key: 'createdAt', title: t('createdAt'), sortable: true, render: (r) => formatDate(r.createdAt) },
    { key: 'creatorName', title: t('creator') },
    {
      key: 'actions',
      title: t('actions'),
      render: (r) => (
        // Icons with their names as labels and tooltips: eleven columns and four actions fit a 1440 px window.
        <ButtonGroup variant="minimal" style={{ whiteSpace: 'nowrap' }}>
          {perms.hasButton('user:edit') && <Button size="small" icon="edit" aria-label={t('edit')} title={t('edit')} onClick={() => crud.startEdit(r)} data-testid={`edit-${r.username}`} />}
          {perms.hasButton('user:examine') && r.status === 'unchecked' && <Button size="small" icon="endorsed" aria-label={t('examine')} title={t('examine')} onClick={() => void examine(r)} />}
          {perms.hasButton('user:enable') && (
            <Button size="small" icon={r.isUse ? 'disable' : 'tick-circle'} aria-label={r.isUse ? t('disable') : t('enable')} title={r.isUse ? t('disable') : t('enable')} onClick={() => void setEnabled([r], !r.isUse)} />
          )}
          {perms.hasButton('user:delete') && <Button size="small" intent="danger" icon="trash" aria-label={t('delete')} title={t('delete')} onClick={() => crud.askDelete([r])} />}
        </ButtonGroup>
      ),
    },
  ];

  return (
    <div data-testid="user-view" style={{ padding: 16 }}>
      <PageHeader
        title={t('title')}
        actions={
          <>
            {perms.hasButton('user:add') && <Button intent="primary" icon="plus" text={t('add')} onClick={() => crud.startEdit('new')} data-testid="user-add" />}
            {perms.hasButton('user:import') && (
              <>
                <UploadButton accept={['.xls']} maxSizeMb={10} text={t('import')} onUpload={upload} onReject={(reason) => notify.warning(reason)} />
                <Button variant="minimal" text={t('template')} onClick={() => void template()} data-testid="user-template" />
              </>
            )}
          </>
        }
      />
      <SearchBar
        fields={[
          { name: 'username', label: t('username') },
          { name: 'realName', label: t('realName') },
          { name: 'departmentId', label: t('department'), type: 'select', options: departments.map((d) => ({ value: String(d.id), label: d.name })) },
          { name: 'roleId', label: t('role'), type: 'select', options: roles.map((r) => ({ value: String(r.id), label: r.name })) },
          { name: 'status', label: t('status'), type: 'select', options: [{ value: 'checked', label: t('checked') }, { value: 'unchecked', label: t('unchecked') }] },
          { name: 'isUse', label: t('isUse'), type: 'select', options: [{ value: '1', label: t('enabled') }, { value: '0', label: t('disabled') }] },
        ]}
        onSearch={setFilters}
      />
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', marginBottom: 12, alignItems: 'center' }}>
        {selected.length > 0 && perms.hasButton('user:enable') && (
          <>
            <Button text={t('enableSelected', { count: selected.length })} onClick={() => void setEnabled(selected, true)} />
            <Button text={t('disableSelected', { count: selected.length })} onClick={() => void setEnabled(selected, false)} />
          </>
        )}
        {selected.length > 0 && perms.hasButton('user:delete') && <Button intent="danger" text={t('deleteSelected', { count: selected.length })} onClick={() => crud.askDelete(selected)} />}
        {perms.hasButton('user:priority') && (
          <>
            <Button text={t('priorityByUsers', { count: selected.length })} disabled={selected.length === 0} onClick={() => setPriorityMode('users')} />
            <Button text={t('priorityByDepartments')} onClick={() => setPriorityMode('departments')} />
          </>
        )}
      </div>
      <PagedTable<UserRow>
        columns={columns}
        rowKey={(r) => r.id}
        load={load}
        reloadKey={filters}
        refreshKey={crud.refreshKey}
        selectable
        onSelectionChange={(_k, rows) => setSelected(rows)}
        testId="user-row"
      />
      <FormDialog
        isOpen={editing !== null}
        title={isNew ? t('add') : t('edit')}
        fields={fields}
        schema={isNew ? addUserSchema : editUserFormSchema}
        initialValues={initial}
        onSubmit={save}
        onClose={crud.stopEditing}
      />
      <FormDialog
        isOpen={priorityMode !== null}
        title={priorityMode === 'users' ? t('priorityByUsers', { count: selected.length }) : t('priorityByDepartments')}
        fields={[
          ...(priorityMode === 'departments' ? [{ name: 'departmentIds', label: t('departments'), type: 'multiselect' as const, options: deptOptions, required: true }] : []),
          { name: 'priority', label: t('priority'), type: 'select', options: priorityOptions, required: true },
        ]}
        initialValues={{ priority: PRIORITY_MIN, departmentIds: [] }}
        onSubmit={setPriority}
        onClose={() => setPriorityMode(null)}
      />
      <ConfirmDialog
        isOpen={deleting !== null}
        title={t('deleteTitle')}
        message={t('deleteMessage')}
        count={deleting?.length}
        items={deleting?.map((r) => r.username)}
        onConfirm={remove}
        onClose={crud.stopDeleting}
      />
      <Dialog isOpen={report !== null} title={t('reportTitle')} onClose={() => setReport(null)} canOutsideClickClose={false} style={{ width: 600 }}>
        <DialogBody>
          {report && (
            <div data-testid="import-report">
              <p>
                <Tag intent="success">{t('importedN', { count: report.imported })}</Tag> <Tag intent={report.rejected ? 'danger' : 'none'}>{t('rejectedN', { count: report.rejected })}</Tag>
              </p>
              <HTMLTable compact striped style={{ width: '100%' }}>
                <thead><tr><th>{t('row')}</th><th>{t('username')}</th><th>{t('outcome')}</th><th>{t('reason')}</th></tr></thead>
                <tbody>
                  {report.rows.map((r) => (
                    <tr key={r.row} data-testid={`import-row-${r.row}`}>
                      <td>{r.row}</td><td>{r.username}</td><td>{r.outcome === 'imported' ? t('imported') : t('rejected')}</td><td>{r.reason ?? ''}</td>
                    </tr>
                  ))}
                </tbody>
              </HTMLTable>
            </div>
          )}
        </DialogBody>
      </Dialog>
    </div>
  );
}
