import { useState } from 'react';
import { Button, Intent, Tag } from '@blueprintjs/core';
import { PageHeader, ConfirmDialog, FormDialog, PagedTable, recordsLoader, rowCalls, SearchBar, useCrudScreen, usePlatform, usePermission, useTranslation } from '@linguaport/sdk/console';
import { dictTypeSchema } from '../shared/schemas.js';
import { formatDate } from '@linguaport/sdk/shared';

export interface DictType {
  id: number;
  name: string;
  code: string;
  description: string;
  enabled: boolean;
  entryCount: number;
  createdAt: string;
}

/** The session key the shell's breadcrumb reads on /dictionarySetting. */
export const DICT_TYPE_KEY = 'dictType';

export function DictionaryTypes() {
  const { t } = useTranslation();
  const { api, navigate } = usePlatform();
  const perms = usePermission();
  const [filters, setFilters] = useState<Record<string, string>>({});
  const crud = useCrudScreen<Partial<DictType>, DictType[]>();
  const { editing, deleting } = crud;
  const [selected, setSelected] = useState<DictType[]>([]);

  const load = recordsLoader<DictType>(api, '/dictType/page', filters);
  const open = (type: DictType) => {
    sessionStorage.setItem(DICT_TYPE_KEY, JSON.stringify({ id: type.id, dictTypeName: type.name }));
    navigate(`/dictionarySetting?typeId=${type.id}`);
  };

  return (
    <div data-testid="dictionary-view" style={{ padding: 20, display: 'grid', gap: 12 }}>
      <PageHeader title={t('heading')} />
      <SearchBar
        fields={[
          { name: 'name', label: t('name') },
          { name: 'code', label: t('code') },
          { name: 'enabled', label: t('enabled'), type: 'select', options: [{ value: '', label: t('all') }, { value: 'true', label: t('on') }, { value: 'false', label: t('off') }] },
        ]}
        onSearch={(v) => setFilters(Object.fromEntries(Object.entries(v).filter(([, x]) => x !== '')))}
        actions={
          <>
            {perms.hasButton('dictionary:add') && <Button icon="add" intent={Intent.PRIMARY} text={t('addType')} onClick={() => crud.startEdit({ enabled: true, description: '' })} />}
            {perms.hasButton('dictionary:delete') && <Button icon="trash" intent={Intent.DANGER} disabled={!selected.length} text={t('deleteSelected')} onClick={() => crud.askDelete(selected)} />}
          </>
        }
      />
      <PagedTable<DictType>
        testId="dict-type"
        rowKey={(r) => r.id}
        load={load}
        reloadKey={filters}
        refreshKey={crud.refreshKey}
        selectable={perms.hasButton('dictionary:delete')}
        onSelectionChange={(_, rows) => setSelected(rows)}
        columns={[
          { key: 'name', title: t('name'), render: (r) => <a onClick={() => open(r)} data-testid={`dict-open-${r.code}`}>{r.name}</a> },
          { key: 'code', title: t('code') },
          { key: 'description', title: t('description') },
          { key: 'entryCount', title: t('entryCount') },
          { key: 'enabled', title: t('enabled'), render: (r) => <Tag minimal intent={r.enabled ? Intent.SUCCESS : Intent.NONE}>{r.enabled ? t('on') : t('off')}</Tag> },
          { key: 'createdAt', title: t('createdAt'), render: (r) => formatDate(r.createdAt) },
          {
            key: 'actions',
            title: t('actions'),
            render: (r) => (
              <>
                <Button size="small" variant="minimal" icon="list-detail-view" text={t('entries')} onClick={() => open(r)} />
                {perms.hasButton('dictionary:edit') && <Button size="small" variant="minimal" icon="edit" text={t('edit')} onClick={() => crud.startEdit(r)} />}
                {perms.hasButton('dictionary:delete') && <Button size="small" variant="minimal" intent={Intent.DANGER} icon="trash" text={t('delete')} onClick={() => crud.askDelete([r])} />}
              </>
            ),
          },
        ]}
      />
      <FormDialog
        isOpen={editing !== null}
        title={t(editing?.id ? 'editType' : 'addType')}
        schema={dictTypeSchema}
        initialValues={editing ?? {}}
        fields={[
          { name: 'name', label: t('name'), required: true },
          { name: 'code', label: t('code'), required: true },
          { name: 'description', label: t('description'), type: 'textarea' },
          { name: 'enabled', label: t('enabled'), type: 'checkbox' },
        ]}
        onClose={crud.stopEditing}
        onSubmit={(values) => crud.save(async (type) => {
          await rowCalls(api, '/dictType').save(type.id ?? null, { ...values, enabled: values.enabled !== false });
          return t('saved');
        })}
      />
      <ConfirmDialog
        isOpen={deleting !== null}
        title={t('deleteTypes')}
        message={t('deleteTypesMessage', { entries: (deleting ?? []).reduce((n, d) => n + d.entryCount, 0) })}
        count={deleting?.length}
        items={deleting?.map((d) => d.name)}
        intent="danger"
        onClose={crud.stopDeleting}
        onConfirm={() => crud.remove(async (types) => {
          await rowCalls(api, '/dictType').remove(types.map((d) => d.id));
        })}
      />
    </div>
  );
}
