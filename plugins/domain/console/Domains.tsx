import { useCallback, useEffect, useState } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, HTMLTable, InputGroup, Intent, NonIdealState, Spinner, Switch } from '@blueprintjs/core';
import { FormDialog, PageHeader, useApi, useCrudScreen, usePermission, useTranslation, type ApiErrorInfo, type FormField, type FormValues } from '@linguaport/sdk/console';
import { domainSchema, type DomainInput } from '../shared/schemas.js';
import { formatDate } from '@linguaport/sdk/shared';

interface Domain extends DomainInput {
  sort: number;
  createdAt: string;
}

type Load = { state: 'loading' } | { state: 'failed'; msg: string } | { state: 'ready'; domains: Domain[] };
const EMPTY: DomainInput = { code: '', nameZh: '', nameEn: '', description: '', enabled: true };

export function Domains() {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const perms = usePermission();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [search, setSearch] = useState('');

  const refresh = useCallback(
    (name = '') =>
      api
        .get<Domain[]>('/domain/all', { params: name ? { name } : {}, silent: true })
        .then((domains) => setLoad({ state: 'ready', domains }))
        .catch((err: ApiErrorInfo) => setLoad({ state: 'failed', msg: err.msg })),
    [api],
  );
  useEffect(() => void refresh(), [refresh]);
  const crud = useCrudScreen<{ mode: 'add' | 'edit'; value: DomainInput }, Domain>({ onReload: () => void refresh(search) });
  const { editing, deleting } = crud;

  const toggle = async (d: Domain) => {
    await api.put('/domain/update', { code: d.code, nameZh: d.nameZh, nameEn: d.nameEn, description: d.description, enabled: !d.enabled });
    void refresh(search);
  };
  const remove = () =>
    crud
      .remove(async (d) => {
        await api.delete(`/domain/delete/${encodeURIComponent(d.code)}`);
        return t('deleted');
      })
      .catch(crud.stopDeleting); // a refused delete closes too: the client's toast names where it is still used
  const save = (value: DomainInput) =>
    crud.save(async ({ mode }) => {
      if (mode === 'add') await api.post('/domain/add', value, { silent: true });
      else await api.put('/domain/update', value, { silent: true });
    });

  return (
    <div data-testid="domain-view" style={{ padding: 20, display: 'grid', gap: 12 }}>
      <PageHeader
        title={t('heading')}
        actions={perms.hasButton('domain:add') && <Button icon="add" intent={Intent.PRIMARY} text={t('add')} onClick={() => crud.startEdit({ mode: 'add', value: EMPTY })} data-testid="domain-add" />}
      />
      <div style={{ display: 'flex', gap: 8 }}>
        <InputGroup leftIcon="search" placeholder={t('searchPlaceholder')} value={search} onValueChange={setSearch} onKeyDown={(e) => e.key === 'Enter' && void refresh(search)} />
        <Button text={t('search')} onClick={() => void refresh(search)} />
      </div>
      {load.state === 'loading' && <NonIdealState icon={<Spinner size={24} />} description={t('loading')} />}
      {load.state === 'failed' && <Callout intent={Intent.DANGER}>{t('loadFailed', { msg: load.msg })}</Callout>}
      {load.state === 'ready' && load.domains.length === 0 && <NonIdealState icon="inbox" description={t('empty')} />}
      {load.state === 'ready' && load.domains.length > 0 && (
        <HTMLTable striped compact>
          <thead>
            <tr>
              <th>{t('code')}</th>
              <th>{t('name')}</th>
              <th>{t('description')}</th>
              <th>{t('enabled')}</th>
              <th>{t('createdAt')}</th>
              <th>{t('actions')}</th>
            </tr>
          </thead>
          <tbody>
            {load.domains.map((d) => (
              <tr key={d.code} data-testid={`domain-row-${d.code}`}>
                <td>{d.code}</td>
                <td>{i18n.language.startsWith('zh') ? d.nameZh : d.nameEn}</td>
                <td>{d.description}</td>
                <td>
                  <Switch checked={d.enabled} disabled={!perms.hasButton('domain:edit')} onChange={() => void toggle(d)} style={{ margin: 0 }} />
                </td>
                <td>{formatDate(d.createdAt)}</td>
                <td style={{ whiteSpace: 'nowrap' }}>
                  {perms.hasButton('domain:edit') && <Button size="small" variant="minimal" icon="edit" text={t('edit')} onClick={() => crud.startEdit({ mode: 'edit', value: d })} />}
                  {perms.hasButton('domain:delete') && <Button size="small" variant="minimal" intent={Intent.DANGER} icon="trash" text={t('delete')} onClick={() => crud.askDelete(d)} />}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {editing && <EditDialog mode={editing.mode} initial={editing.value} onClose={crud.stopEditing} onSubmit={save} />}
      {deleting && (
        <Dialog isOpen title={t('deleteTitle')} onClose={crud.stopDeleting} canOutsideClickClose={false} style={{ width: 600 }}>
          <DialogBody>{t('deleteConfirm', { name: `${deleting.code} (${i18n.language.startsWith('zh') ? deleting.nameZh : deleting.nameEn})` })}</DialogBody>
          <DialogFooter actions={[<Button key="c" text={t('cancel')} onClick={crud.stopDeleting} />, <Button key="d" intent={Intent.DANGER} text={t('delete')} onClick={() => void remove()} />]} />
        </Dialog>
      )}
    </div>
  );
}

/** The add or edit form: the kit's FormDialog; the shared schema checks before sending, each issue beside its field. */
function EditDialog(props: { mode: 'add' | 'edit'; initial: DomainInput; onClose(): void; onSubmit(value: DomainInput): Promise<void> }) {
  const { t } = useTranslation();
  const fields: FormField[] = [
    { name: 'code', label: t('code'), required: true, disabled: props.mode === 'edit' },
    { name: 'nameZh', label: t('nameZh'), required: true },
    { name: 'nameEn', label: t('nameEn'), required: true },
    { name: 'description', label: t('description'), type: 'textarea' },
    { name: 'enabled', label: t('enabled'), type: 'checkbox' },
  ];
  const submit = async (values: FormValues) => {
    const parsed = domainSchema.safeParse({ ...values, enabled: !!values.enabled });
    // Placed beside each field by the dialog (`field: message; ...`), as a server 400 would be.
    if (!parsed.success) throw { msg: [...new Set(parsed.error.issues.map((i) => String(i.path[0])))].map((name) => `${name}: ${t(`invalid.${name}`)}`).join('; ') };
    await props.onSubmit(parsed.data);
  };
  return <FormDialog isOpen title={t(props.mode === 'add' ? 'add' : 'edit')} fields={fields} initialValues={{ ...props.initial }} onSubmit={submit} onClose={props.onClose} />;
}
