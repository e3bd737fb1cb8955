import { useCallback, useEffect, useState } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLTable, InputGroup, Intent, NonIdealState, NumericInput, Spinner, Switch } from '@blueprintjs/core';
import { PageHeader, useApi, useCrudScreen, useNotify, usePermission, useTranslation, type ApiErrorInfo } from '@linguaport/sdk/console';
import { languageEditSchema, type LanguageEdit } from '../shared/schemas.js';

interface Language extends LanguageEdit {
  sort: number;
}

type Load = { state: 'loading' } | { state: 'failed'; msg: string } | { state: 'ready'; languages: Language[] };

/** Moves one code to a 1-based position and returns the whole order. */
export function moveTo(codes: string[], code: string, position: number): string[] {
  const rest = codes.filter((c) => c !== code);
  const index = Math.min(Math.max(position - 1, 0), rest.length);
  return [...rest.slice(0, index), code, ...rest.slice(index)];
}

export function LanguageSorting() {
  const { t } = useTranslation();
  const api = useApi();
  const notify = useNotify();
  const permissions = usePermission();
  const canEdit = permissions.hasButton('language:edit');
  const canSort = permissions.hasButton('language:sort');
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [dragging, setDragging] = useState<string | null>(null);

  const refresh = useCallback(() => {
    api
      .get<Language[]>('/language/all', { silent: true })
      .then((languages) => setLoad({ state: 'ready', languages }))
      .catch((err: ApiErrorInfo) => setLoad({ state: 'failed', msg: err.msg }));
  }, [api]);
  useEffect(refresh, [refresh]);
  const crud = useCrudScreen<{ mode: 'add' | 'edit'; value: LanguageEdit }>({ onReload: refresh });
  const { editing } = crud;
  const save = (value: LanguageEdit) =>
    crud.save(async ({ mode }) => {
      if (mode === 'add') await api.post('/language/add', value);
      else await api.put('/language/update', value);
    });

  const saveOrder = async (codes: string[]) => {
    await api.put('/language/sort', { codes });
    notify.success(t('orderSaved'));
    refresh();
  };
  const toggle = async (l: Language) => {
    await api.put('/language/update', { code: l.code, nameZh: l.nameZh, nameEn: l.nameEn, enabled: !l.enabled });
    refresh();
  };

  if (load.state === 'loading') return <NonIdealState icon={<Spinner size={24} />} description={t('loading')} />;
  if (load.state === 'failed') return <Callout intent={Intent.DANGER}>{t('loadFailed', { msg: load.msg })}</Callout>;
  const codes = load.languages.map((l) => l.code);

  return (
    <div data-testid="language-sorting-view" style={{ padding: 20, display: 'grid', gap: 12 }}>
      <PageHeader title={t('heading')} />
      <div className="bp6-text-muted">{canSort ? t('hintSort') : t('hintReadOnly')}</div>
      {canEdit && (
        <div>
          <Button icon="add" intent={Intent.PRIMARY} text={t('add')} onClick={() => crud.startEdit({ mode: 'add', value: { code: '', nameZh: '', nameEn: '', enabled: true } })} />
        </div>
      )}
      <HTMLTable striped compact interactive>
        <thead>
          <tr>
            <th>{t('position')}</th>
            <th>{t('code')}</th>
            <th>{t('nameZh')}</th>
            <th>{t('nameEn')}</th>
            <th>{t('enabled')}</th>
            <th>{t('actions')}</th>
          </tr>
        </thead>
        <tbody>
          {load.languages.map((l, i) => (
            <tr
              key={l.code}
              data-testid={`language-row-${l.code}`}
              draggable={canSort}
              style={{ cursor: canSort ? 'grab' : undefined, opacity: dragging === l.code ? 0.4 : 1 }}
              onDragStart={(e) => {
                e.dataTransfer.setData('text/plain', l.code);
                setDragging(l.code);
              }}
              onDragEnd={() => setDragging(null)}
              onDragOver={(e) => canSort && e.preventDefault()}
              onDrop={(e) => {
                e.preventDefault();
                const code = e.dataTransfer.getData('text/plain');
                setDragging(null);
                if (code && code !== l.code) void saveOrder(moveTo(codes, code, i + 1));
              }}
            >
              <td style={{ width: 110 }}>
                {canSort ? (
                  <PositionInput position={i + 1} max={codes.length} testId={`language-position-${l.code}`} onCommit={(p) => p !== i + 1 && void saveOrder(moveTo(codes, l.code, p))} />
                ) : (
                  i + 1
                )}
              </td>
              <td>{l.code}</td>
              {/* Each name in its own language, whatever the console's: declared so. */}
              <td lang="zh-CN">{l.nameZh}</td>
              <td lang="en">{l.nameEn}</td>
              <td>
                <Switch checked={l.enabled} disabled={!canEdit} onChange={() => void toggle(l)} data-testid={`language-enabled-${l.code}`} style={{ margin: 0 }} />
              </td>
              <td>{canEdit && <Button size="small" icon="edit" text={t('edit')} onClick={() => crud.startEdit({ mode: 'edit', value: { code: l.code, nameZh: l.nameZh, nameEn: l.nameEn, enabled: l.enabled } })} />}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      {editing && <EditDialog mode={editing.mode} initial={editing.value} onClose={crud.stopEditing} onSubmit={save} />}
    </div>
  );
}

function PositionInput(props: { position: number; max: number; testId: string; onCommit(p: number): void }) {
  const [value, setValue] = useState(props.position);
  useEffect(() => setValue(props.position), [props.position]);
  return (
    <NumericInput
      data-testid={props.testId}
      value={value}
      min={1}
      max={props.max}
      buttonPosition="none"
      fill
      size="small"
      onValueChange={(v) => setValue(v)}
      onBlur={() => Number.isInteger(value) && value >= 1 && props.onCommit(value)}
      onKeyDown={(e) => e.key === 'Enter' && Number.isInteger(value) && value >= 1 && props.onCommit(value)}
    />
  );
}

/** The add or edit form; `onSubmit` saves, and a rejection leaves the form open (the client's toast says why). */
function EditDialog(props: { mode: 'add' | 'edit'; initial: LanguageEdit; onClose(): void; onSubmit(value: LanguageEdit): Promise<void> }) {
  const { t } = useTranslation();
  const [value, setValue] = useState(props.initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const parsed = languageEditSchema.safeParse(value);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), t(`invalid.${String(i.path[0])}`)])));
      return;
    }
    setBusy(true);
    try {
      await props.onSubmit(parsed.data);
    } catch {
      setBusy(false);
    }
  };
  const field = (name: 'code' | 'nameZh' | 'nameEn', disabled = false) => (
    <FormGroup label={t(name)} labelFor={`language-${name}`} intent={errors[name] ? Intent.DANGER : Intent.NONE} helperText={errors[name]}>
      <InputGroup id={`language-${name}`} value={value[name]} disabled={disabled} onValueChange={(v) => setValue({ ...value, [name]: v })} />
    </FormGroup>
  );
  return (
    <Dialog isOpen title={t(props.mode === 'add' ? 'add' : 'edit')} onClose={props.onClose} canOutsideClickClose={false} style={{ width: 600 }}>
      <DialogBody>
        {field('code', props.mode === 'edit')}
        {field('nameZh')}
        {field('nameEn')}
        <Switch label={t('enabled')} checked={value.enabled} onChange={() => setValue({ ...value, enabled: !value.enabled })} />
      </DialogBody>
      <DialogFooter actions={[<Button key="c" text={t('cancel')} onClick={props.onClose} />, <Button key="s" intent={Intent.PRIMARY} loading={busy} text={t('save')} onClick={() => void submit()} />]} />
    </Dialog>
  );
}
