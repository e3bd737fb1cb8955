import { useEffect, useState } from 'react';
import { Button, Callout, Card, FormGroup, H3, H5, InputGroup, Intent, NonIdealState, Spinner, Switch } from '@blueprintjs/core';
import { usePermission, usePlatform, useTranslation } from '@linguaport/sdk/console';
import { validationMessage, type z } from '@linguaport/sdk/shared';
import { LIMIT_KEYS, limitsSchema, LT_KEYS, ltSchema } from '../shared/rules.js';
import { useConfigGroup, type ConfigLoad } from './config.js';

/** Caps and limits of translation (spec 02 section 5), stored as system configuration. */
export function TranslationSettings() {
  const { t } = useTranslation();
  const canEdit = usePermission().hasButton('systemConfig:edit');
  const [load, refresh] = useConfigGroup('translation');
  const { values, setValues, errors, busy, save, name } = useConfigCard(load, refresh, LIMIT_KEYS, limitsSchema);

  if (load.state === 'loading') return <NonIdealState icon={<Spinner size={24} />} description={t('loading')} />;
  if (load.state === 'failed') return <Callout intent={Intent.DANGER} style={{ margin: 20 }}>{t('loadFailed', { msg: load.msg })}</Callout>;

  return (
    <div data-testid="translation-settings-view" style={{ padding: 20, display: 'grid', gap: 16, maxWidth: 720 }}>
      <H3>{t('title')}</H3>
      <Callout>{t('rule')}</Callout>
      <Card>
        {LIMIT_KEYS.map((k) => (
          <FormGroup key={k} label={name(k)} labelFor={`limit-${k}`} labelInfo="*" inline intent={errors[k] ? Intent.DANGER : Intent.NONE} helperText={errors[k] ?? t(`help.${k}`)}>
            <InputGroup
              id={`limit-${k}`}
              data-testid={`limit-${k}`}
              inputMode="numeric"
              value={values[k] ?? ''}
              disabled={!canEdit}
              intent={errors[k] ? Intent.DANGER : Intent.NONE}
              onValueChange={(v) => setValues({ ...values, [k]: v })}
            />
          </FormGroup>
        ))}
        {canEdit && <Button intent={Intent.PRIMARY} loading={busy} text={t('save')} onClick={() => void save()} data-testid="limits-save" />}
      </Card>
      <LtSettings load={load} refresh={refresh} canEdit={canEdit} />
    </div>
  );
}

/** The LibreTranslate-compatible API's settings: keyless use, its quota, requests per minute, allowed origins. */
function LtSettings({ load, refresh, canEdit }: { load: ConfigLoad; refresh: () => void; canEdit: boolean }) {
  const { t } = useTranslation();
  const { values, setValues, errors, busy, save, name } = useConfigCard(load, refresh, LT_KEYS, ltSchema);
  if (load.state !== 'ready') return null;
  return (
    <Card data-testid="lt-settings">
      <H5>{t('ltTitle')}</H5>
      <Switch label={`${name('LT_KEYLESS')}: ${t('ltKeyless')}`} checked={values.LT_KEYLESS === '1'} disabled={!canEdit} data-testid="lt-LT_KEYLESS" onChange={(e) => setValues({ ...values, LT_KEYLESS: e.currentTarget.checked ? '1' : '0' })} />
      {(['LT_KEYLESS_CAP', 'LT_RATE_LIMIT', 'LT_CORS_ORIGINS'] as const).map((k) => (
        <FormGroup key={k} label={name(k)} labelFor={`lt-${k}`} intent={errors[k] ? Intent.DANGER : Intent.NONE} helperText={errors[k] ?? t(`ltHelp.${k}`)}>
          <InputGroup id={`lt-${k}`} data-testid={`lt-${k}`} value={values[k] ?? ''} disabled={!canEdit} intent={errors[k] ? Intent.DANGER : Intent.NONE} onValueChange={(v) => setValues({ ...values, [k]: v })} />
        </FormGroup>
      ))}
      {canEdit && <Button intent={Intent.PRIMARY} loading={busy} text={t('save')} onClick={() => void save()} data-testid="lt-save" />}
    </Card>
  );
}

/**
 * One card of configuration entries: its values as loaded, the field errors of its schema, and a save
 * that checks the schema and writes the card's keys together.
 */
function useConfigCard(load: ConfigLoad, refresh: () => void, keys: readonly string[], schema: z.ZodType<Record<string, unknown>>) {
  const { t, i18n } = useTranslation();
  const { api, notify } = usePlatform();
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (load.state === 'ready') setValues(Object.fromEntries(keys.map((k) => [k, load.entries.get(k)?.configValue ?? ''])));
  }, [load, keys]);
  const message = (key: string) => (i18n.exists(key) ? t(key) : validationMessage(key, i18n.language));
  const save = async () => {
    const parsed = schema.safeParse(values);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const i of parsed.error.issues) found[String(i.path[0])] ??= message(i.message);
      return setErrors(found);
    }
    setErrors({});
    setBusy(true);
    try {
      await api.put('/systemConfig/updateSystemConfig', { entries: keys.map((k) => ({ configKey: k, configValue: String(parsed.data[k]) })) });
      notify.success(t('saved'));
      refresh();
    } finally {
      setBusy(false);
    }
  };
  const name = (k: string) => {
    const e = load.state === 'ready' ? load.entries.get(k) : undefined;
    return e ? (i18n.language.startsWith('zh') ? e.nameZh : e.nameEn) : k;
  };
  return { values, setValues, errors, busy, save, name };
}
