import { useCallback, useEffect, useState } from 'react';
import { Button, Callout, Card, FormGroup, H3, H5, InputGroup, Intent, NonIdealState, Spinner } from '@blueprintjs/core';
import { LanguageSelect, usePermission, usePlatform, useTranslation, type ApiErrorInfo } from '@linguaport/sdk/console';
import { HEX_COLOR, PICTURE_TYPES, checkPicture } from '../shared/pictures.js';

/** One entry of the kernel's `GET /systemConfig/getConfig`. */
interface ConfigEntry {
  configKey: string;
  configValue: string | null;
  nameZh: string;
  nameEn: string;
  group: string;
  valueType: string;
  width: number | null;
  height: number | null;
}

type Load = { state: 'loading' } | { state: 'failed'; msg: string } | { state: 'ready'; entries: ConfigEntry[] };

const COMPANY_KEYS = ['SITE_TITLE', 'FILING_NUMBER', 'SYSTEM_COLOR', 'DEFAULT_SOURCE_LANGUAGE', 'DEFAULT_TARGET_LANGUAGE'];

/** System configuration (spec 01 section 7.3) over the kernel's calls. */
export function Deploy() {
  const { t, i18n } = useTranslation();
  const { api, notify } = usePlatform();
  const canEdit = usePermission().hasButton('systemConfig:edit');
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<string | null>(null);

  const refresh = useCallback(() => {
    api
      .get<ConfigEntry[]>('/systemConfig/getConfig', { silent: true })
      .then((entries) => {
        setLoad({ state: 'ready', entries });
        setValues(Object.fromEntries(entries.map((e) => [e.configKey, e.configValue ?? ''])));
      })
      .catch((err: ApiErrorInfo) => setLoad({ state: 'failed', msg: err.msg }));
  }, [api]);
  useEffect(refresh, [refresh]);

  if (load.state === 'loading') return <NonIdealState icon={<Spinner size={24} />} description={t('loading')} />;
  if (load.state === 'failed') return <Callout intent={Intent.DANGER} style={{ margin: 20 }}>{t('loadFailed', { msg: load.msg })}</Callout>;

  const byKey = new Map(load.entries.map((e) => [e.configKey, e]));
  const label = (key: string) => {
    const e = byKey.get(key);
    return e ? (i18n.language.startsWith('zh') ? e.nameZh : e.nameEn) : key;
  };
  const set = (key: string, value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors(({ [key]: _gone, ...rest }) => rest);
  };
  const save = async (section: string, keys: string[]) => {
    const found: Record<string, string> = {};
    if (keys.includes('SYSTEM_COLOR') && !HEX_COLOR.test(values.SYSTEM_COLOR ?? '')) found.SYSTEM_COLOR = t('invalidColor');
    if (keys.includes('SITE_TITLE') && !(values.SITE_TITLE ?? '').trim()) found.SITE_TITLE = t('required');
    if (keys.includes('DEFAULT_SOURCE_LANGUAGE') && values.DEFAULT_SOURCE_LANGUAGE && values.DEFAULT_SOURCE_LANGUAGE === values.DEFAULT_TARGET_LANGUAGE) found.DEFAULT_TARGET_LANGUAGE = t('sameLanguages');
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(section);
    try {
      await api.put('/systemConfig/updateConfig', { entries: keys.filter((k) => byKey.has(k)).map((k) => ({ configKey: k, configValue: (values[k] ?? '').trim() })) });
      notify.success(t('saved'));
      refresh();
    } finally {
      setBusy(null);
    }
  };

  const text = (key: string, extra?: { placeholder?: string }) => (
    <FormGroup key={key} label={label(key)} labelFor={`cfg-${key}`} intent={errors[key] ? Intent.DANGER : Intent.NONE} helperText={errors[key]}>
      <InputGroup id={`cfg-${key}`} data-testid={`cfg-${key}`} value={values[key] ?? ''} disabled={!canEdit} placeholder={extra?.placeholder} onValueChange={(v) => set(key, v)} />
    </FormGroup>
  );
  // Secrets are write-only: the kernel sends a mask when one is set (saving the mask keeps it), '' when not.
  const secret = (e: ConfigEntry) => (
    <FormGroup key={e.configKey} label={label(e.configKey)} labelFor={`cfg-${e.configKey}`} helperText={t(e.configValue ? 'secretSet' : 'secretUnset')}>
      <InputGroup id={`cfg-${e.configKey}`} data-testid={`cfg-${e.configKey}`} type="password" autoComplete="new-password" value={values[e.configKey] ?? ''} disabled={!canEdit} onValueChange={(v) => set(e.configKey, v)} />
    </FormGroup>
  );
  const contacts = load.entries.filter((e) => e.group === 'contact');
  const account = load.entries.filter((e) => e.group === 'account');
  const pictures = load.entries.filter((e) => e.valueType === 'image');

  return (
    <div data-testid="deploy-view" style={{ padding: 20, display: 'grid', gap: 16, maxWidth: 960 }}>
      <H3>{t('title')}</H3>
      <Card>
        <H5>{t('company')}</H5>
        {text('SITE_TITLE')}
        {text('FILING_NUMBER')}
        <FormGroup label={label('SYSTEM_COLOR')} labelFor="cfg-SYSTEM_COLOR" intent={errors.SYSTEM_COLOR ? Intent.DANGER : Intent.NONE} helperText={errors.SYSTEM_COLOR ?? t('colorHelp')}>
          <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
            <input
              type="color"
              aria-label={label('SYSTEM_COLOR')}
              data-testid="cfg-SYSTEM_COLOR-picker"
              value={HEX_COLOR.test(values.SYSTEM_COLOR ?? '') ? values.SYSTEM_COLOR : '#353f9d'}
              disabled={!canEdit}
              onChange={(e) => set('SYSTEM_COLOR', e.currentTarget.value)}
              style={{ width: 48, height: 30, padding: 0, border: 'none', background: 'none' }}
            />
            <InputGroup id="cfg-SYSTEM_COLOR" data-testid="cfg-SYSTEM_COLOR" value={values.SYSTEM_COLOR ?? ''} disabled={!canEdit} onValueChange={(v) => set('SYSTEM_COLOR', v)} style={{ width: 120 }} />
          </div>
        </FormGroup>
        <div style={{ display: 'flex', gap: 24 }}>
          <FormGroup label={label('DEFAULT_SOURCE_LANGUAGE')} labelFor="cfg-DEFAULT_SOURCE_LANGUAGE">
            <LanguageSelect id="cfg-DEFAULT_SOURCE_LANGUAGE" data-testid="cfg-DEFAULT_SOURCE_LANGUAGE" value={values.DEFAULT_SOURCE_LANGUAGE} disabled={!canEdit} onChange={(v) => set('DEFAULT_SOURCE_LANGUAGE', v)} />
          </FormGroup>
          <FormGroup label={label('DEFAULT_TARGET_LANGUAGE')} labelFor="cfg-DEFAULT_TARGET_LANGUAGE" intent={errors.DEFAULT_TARGET_LANGUAGE ? Intent.DANGER : Intent.NONE} helperText={errors.DEFAULT_TARGET_LANGUAGE}>
            <LanguageSelect id="cfg-DEFAULT_TARGET_LANGUAGE" data-testid="cfg-DEFAULT_TARGET_LANGUAGE" value={values.DEFAULT_TARGET_LANGUAGE} disabled={!canEdit} onChange={(v) => set('DEFAULT_TARGET_LANGUAGE', v)} />
          </FormGroup>
        </div>
        {canEdit && <Button intent={Intent.PRIMARY} data-testid="deploy-save-company" loading={busy === 'company'} text={t('save')} onClick={() => void save('company', COMPANY_KEYS)} />}
      </Card>
      <Card>
        <H5>{t('contact')}</H5>
        <div className="bp6-text-muted" style={{ marginBottom: 8 }}>{t('contactHelp')}</div>
        {contacts.map((e) => text(e.configKey))}
        {canEdit && <Button intent={Intent.PRIMARY} loading={busy === 'contact'} text={t('save')} onClick={() => void save('contact', contacts.map((e) => e.configKey))} />}
      </Card>
      {account.length > 0 && (
        <Card>
          <H5>{t('account')}</H5>
          {account.map((e) => (e.valueType === 'secret' ? secret(e) : text(e.configKey)))}
          {canEdit && <Button intent={Intent.PRIMARY} data-testid="deploy-save-account" loading={busy === 'account'} text={t('save')} onClick={() => void save('account', account.map((e) => e.configKey))} />}
        </Card>
      )}
      <Card>
        <H5>{t('pictures')}</H5>
        <div style={{ display: 'grid', gap: 16 }}>
          {pictures.map((e) => (
            <PictureRow key={e.configKey} entry={e} label={label(e.configKey)} canEdit={canEdit} onChanged={refresh} />
          ))}
        </div>
      </Card>
    </div>
  );
}

function readDimensions(file: File): Promise<{ width: number; height: number } | null> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.onload = () => {
      resolve({ width: img.naturalWidth, height: img.naturalHeight });
      URL.revokeObjectURL(url);
    };
    img.onerror = () => {
      resolve(null);
      URL.revokeObjectURL(url);
    };
    img.src = url;
  });
}

function PictureRow(props: { entry: ConfigEntry; label: string; canEdit: boolean; onChanged(): void }) {
  const { t } = useTranslation();
  const { api, notify } = usePlatform();
  const { entry } = props;
  const [note, setNote] = useState<{ intent: Intent; text: string } | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const suggested = entry.width && entry.height ? `${entry.width} × ${entry.height}` : null;

  const choose = async (file: File) => {
    const check = checkPicture(file, await readDimensions(file), { width: entry.width, height: entry.height });
    if (!check.ok) return setNote({ intent: Intent.DANGER, text: t(check.reason === 'size' ? 'pictureTooLarge' : 'pictureType') });
    const form = new FormData();
    form.append('configKey', entry.configKey);
    form.append('file', file, file.name);
    setProgress(0);
    try {
      await api.post('/systemConfig/updatePictureConfig', form, { onUploadProgress: setProgress });
      notify.success(t('pictureSaved'));
      setNote(check.warning ? { intent: Intent.WARNING, text: t('pictureOtherSize', { actual: `${check.warning.width} × ${check.warning.height}`, suggested }) } : null);
      props.onChanged();
    } finally {
      setProgress(null);
    }
  };
  return (
    <div data-testid={`picture-${entry.configKey}`} style={{ display: 'grid', gridTemplateColumns: '200px 1fr', gap: 12, alignItems: 'start' }}>
      <div>
        <strong>{props.label}</strong>
        <div className="bp6-text-muted">{suggested ? t('suggested', { size: suggested }) : ''}</div>
        <div className="bp6-text-muted">{t('pictureLimit')}</div>
      </div>
      <div style={{ display: 'grid', gap: 8 }}>
        {entry.configValue ? (
          <img src={entry.configValue} alt={props.label} style={{ maxWidth: '100%', maxHeight: 120, objectFit: 'contain', border: '1px solid #e1e4e8', alignSelf: 'start', justifySelf: 'start' }} />
        ) : (
          <span className="bp6-text-muted">{t('noPicture')}</span>
        )}
        {props.canEdit && (
          <label className="bp6-file-input" style={{ maxWidth: 320 }}>
            <input
              type="file"
              accept={PICTURE_TYPES.join(',')}
              data-testid={`picture-input-${entry.configKey}`}
              onChange={(e) => {
                const file = e.currentTarget.files?.[0];
                e.currentTarget.value = '';
                if (file) void choose(file);
              }}
            />
            <span className="bp6-file-upload-input">{progress !== null ? t('uploading', { percent: Math.round(progress * 100) }) : t('choosePicture')}</span>
          </label>
        )}
        {note && <Callout intent={note.intent}>{note.text}</Callout>}
      </div>
    </div>
  );
}
