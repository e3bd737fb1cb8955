import { useEffect, useState } from 'react';
import { Button, Callout, Intent } from '@blueprintjs/core';
import { PageHeader, ConfirmDialog, FormDialog, PagedTable, recordsLoader, rowCalls, SearchBar, useCrudScreen, usePlatform, usePermission, useTranslation, type ViewProps } from '@linguaport/sdk/console';
import { dictEntrySchema } from '../shared/schemas.js';
import { DICT_TYPE_KEY, type DictType } from './DictionaryTypes.js';

interface DictEntry {
  id: number;
  typeId: number;
  name: string;
  code: string;
  value: string;
  sort: number;
  description: string;
}

/** The entries of one type (`/dictionarySetting?typeId=`); the breadcrumb names the type. */
export function DictionaryEntries({ query }: ViewProps) {
  const { t } = useTranslation();
  const { api, navigate } = usePlatform();
  const perms = usePermission();
  const typeId = Number(query.typeId ?? (JSON.parse(sessionStorage.getItem(DICT_TYPE_KEY) ?? '{}') as { id?: number }).id);
  const [type, setType] = useState<DictType | null>(null);
  const [missing, setMissing] = useState(false);
  const [filters, setFilters] = useState<Record<string, string>>({});
  const crud = useCrudScreen<Partial<DictEntry>, DictEntry[]>();
  const { editing, deleting } = crud;

  useEffect(() => {
    if (!Number.isInteger(typeId) || typeId <= 0) return setMissing(true);
    api
      .get<DictType>(`/dictType/${typeId}`, { silent: true })
      .then((tp) => {
        setType(tp);
        // Keep the breadcrumb right when the page is opened by its address rather than from the list.
        sessionStorage.setItem(DICT_TYPE_KEY, JSON.stringify({ id: tp.id, dictTypeName: tp.name }));
      })
      .catch(() => setMissing(true));
  }, [api, typeId]);

  if (missing)
    return (
      <Callout intent={Intent.WARNING} style={{ margin: 20 }}>
        {t('noType')} <Button size="small" text={t('backToTypes')} onClick={() => navigate('/dictionary')} />
      </Callout>
    );

  const load = recordsLoader<DictEntry>(api, '/dictData/page', { ...filters, typeId });
  return (
    <div data-testid="dictionary-entries-view" style={{ padding: 20, display: 'grid', gap: 12 }}>
      <PageHeader title={type ? t('entriesOf', { name: type.name, code: type.code }) : t('entriesTitle')} />
      <SearchBar
        fields={[{ name: 'name', label: t('nameOrCode') }]}
        onSearch={(v) => setFilters(v.name ? { name: v.name } : {})}
        actions={
          <>
            <Button icon="arrow-left" text={t('backToTypes')} onClick={() => navigate('/dictionary')} />
            {perms.hasButton('dictionary:add') && <Button icon="add" intent={Intent.PRIMARY} text={t('addEntry')} onClick={() => crud.startEdit({ typeId, sort: 1, description: '' })} />}
          </>
        }
      />
      <PagedTable<DictEntry>
        testId="dict-entry"
        rowKey={(r) => r.id}
        load={load}
        reloadKey={filters}
        refreshKey={crud.refreshKey}
        columns={[
          { key: 'name', title: t('dataName') },
          { key: 'code', title: t('code') },
          { key: 'value', title: t('value') },
          { key: 'sort', title: t('sort') },
          { key: 'description', title: t('description') },
          {
            key: 'actions',
            title: t('actions'),
            render: (r) => (
              <>
                {perms.hasButton('dictionary:edit') && <Button size="small" variant="minimal" icon="edit" text={t('edit')} onClick={() => crud.startEdit(r)} />}
                {perms.hasButton('dictionary:delete') && <Button size="small" variant="minimal" intent={Intent.DANGER} icon="trash" text={t('delete')} onClick={() => crud.askDelete([r])} />}
              </>
            ),
          },
        ]}
      />
      <FormDialog
        isOpen={editing !== null}
        title={t(editing?.id ? 'editEntry' : 'addEntry')}
        schema={dictEntrySchema}
        initialValues={editing ?? {}}
        fields={[
          { name: 'name', label: t('dataName'), required: true },
          { name: 'code', label: t('code'), required: true },
          { name: 'value', label: t('value'), required: true },
          { name: 'sort', label: t('sort'), type: 'number', required: true, helperText: t('sortHelp') },
          { name: 'description', label: t('description'), type: 'textarea' },
        ]}
        onClose={crud.stopEditing}
        onSubmit={(values) => crud.save(async (entry) => {
          await rowCalls(api, '/dictData').save(entry.id ?? null, { ...values, typeId });
          return t('saved');
        })}
      />
      <ConfirmDialog
        isOpen={deleting !== null}
        title={t('deleteEntries')}
        message={t('deleteEntriesMessage')}
        count={deleting?.length}
        items={deleting?.map((d) => d.name)}
        intent="danger"
        onClose={crud.stopDeleting}
        onConfirm={() => crud.remove(async (entries) => {
          await rowCalls(api, '/dictData').remove(entries.map((d) => d.id));
        })}
      />
    </div>
  );
}
