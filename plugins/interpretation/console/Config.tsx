import { useEffect, useState } from 'react';
import { Button, Callout, Checkbox, FormGroup, HTMLSelect, InputGroup, Intent, NumericInput, Radio, RadioGroup, Spinner } from '@blueprintjs/core';
import { ResourcePickers, useApi, useNotify, usePermission, useTranslation, type ApiErrorInfo } from '@linguaport/sdk/console';
import { KEYS, type EnginesAnswer, type InterpretationConfig } from '../shared/schemas.js';
import { languageLabel, NS, type ConfigAnswer } from './common.js';

/** The speech nodes and translation engines the user may name for the pair and domain (re-read when they change). */
function useEngineOptions(source: string | undefined, target: string | undefined, domain: string | undefined): EnginesAnswer | null {
  const api = useApi();
  const [options, setOptions] = useState<EnginesAnswer | null>(null);
  useEffect(() => {
    if (!source || !target) return;
    let cancelled = false;
    api.get<EnginesAnswer>('/interpretation/engines', { params: { source, target, domain: domain ?? '' }, silent: true }).then(
      (a) => !cancelled && setOptions(a),
      () => !cancelled && setOptions({ speech: [], translation: [] }),
    );
    return () => {
      cancelled = true;
    };
  }, [api, source, target, domain]);
  return options;
}

/** A select of engines with "automatic" first; a saved choice that is no longer offered stays visible, marked unavailable. */
function EngineSelect({ id, label, help, options, value, disabled, onChange, testId }: { id: string; label: string; help: string; options: EnginesAnswer['speech'] | undefined; value: number | null; disabled: boolean; onChange(v: number | null): void; testId: string }) {
  const { t } = useTranslation(NS);
  const list = options ?? [];
  const missing = value !== null && !list.some((o) => o.id === value);
  return (
    <FormGroup label={label} helperText={missing ? t('engineMissing') : help} intent={missing ? Intent.WARNING : Intent.NONE} labelFor={id}>
      <HTMLSelect id={id} value={value === null ? '' : String(value)} disabled={disabled} onChange={(e) => onChange(e.currentTarget.value ? Number(e.currentTarget.value) : null)} data-testid={testId}>
        <option value="">{t('automatic')}</option>
        {missing && <option value={String(value)}>{t('engineUnavailable', { id: value })}</option>}
        {list.map((o) => (
          <option key={o.id} value={String(o.id)}>
            {o.ready ? o.name : t('engineDown', { name: o.name })}
          </option>
        ))}
      </HTMLSelect>
    </FormGroup>
  );
}

/** Each user's interpretation settings, stored on the server: languages, libraries, speakers and caption style. */
export function SimultaneousInterpretingConfiguration() {
  const { t, i18n } = useTranslation(NS);
  const api = useApi();
  const notify = useNotify();
  const permissions = usePermission();
  const mayEdit = permissions.hasButton(KEYS.configure);
  const [answer, setAnswer] = useState<ConfigAnswer | null>(null);
  const [config, setConfig] = useState<InterpretationConfig | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const engines = useEngineOptions(config?.source, config?.target, config?.domain);
  useEffect(() => {
    api.get<ConfigAnswer>('/interpretation/config', { silent: true }).then(
      (a) => {
        setAnswer(a);
        setConfig(a.config);
      },
      (e: ApiErrorInfo) => setLoadError(e.msg),
    );
  }, [api]);
  if (loadError) return <Callout intent={Intent.DANGER}>{loadError}</Callout>;
  if (!answer || !config) return <Spinner />;
  const set = (patch: Partial<InterpretationConfig>) => setConfig({ ...config, ...patch });
  const setCaption = (patch: Partial<InterpretationConfig['caption']>) => setConfig({ ...config, caption: { ...config.caption, ...patch } });
  const targets = answer.languages.find((l) => l.code === config.source || l.code.split('-')[0] === config.source.split('-')[0])?.targets ?? [];
  const save = async () => {
    setError(null);
    setSaving(true);
    try {
      setConfig(await api.put<InterpretationConfig>('/interpretation/config', config, { silent: true }));
      notify.success(t('saved'));
    } catch (e) {
      setError((e as ApiErrorInfo).msg);
    } finally {
      setSaving(false);
    }
  };
  const option = (c: string) => (
    <option key={c} value={c}>
      {languageLabel(c, i18n.language)}
    </option>
  );
  return (
    <div style={{ maxWidth: 720, display: 'grid', gap: 4 }}>
      {!mayEdit && <Callout intent={Intent.PRIMARY}>{t('readOnly')}</Callout>}
      <FormGroup label={t('source')} helperText={t('sourceHelp')} labelFor="si-source">
        <HTMLSelect id="si-source" value={config.source} disabled={!mayEdit} onChange={(e) => set({ source: e.currentTarget.value })} data-testid="interpretation-config-source">
          {(answer.speechLanguages.includes(config.source) ? answer.speechLanguages : [config.source, ...answer.speechLanguages]).map(option)}
        </HTMLSelect>
      </FormGroup>
      <FormGroup label={t('target')} labelFor="si-target">
        <HTMLSelect id="si-target" value={config.target} disabled={!mayEdit} onChange={(e) => set({ target: e.currentTarget.value })} data-testid="interpretation-config-target">
          {(targets.includes(config.target) ? targets : [config.target, ...targets]).map(option)}
        </HTMLSelect>
      </FormGroup>
      <FormGroup label={t('engines')} helperText={t('enginesHelp')} labelFor="si-domain">
        <InputGroup id="si-domain" value={config.domain} disabled={!mayEdit} placeholder={t('domainPlaceholder')} onChange={(e) => set({ domain: e.currentTarget.value })} />
      </FormGroup>
      <EngineSelect id="si-speech-engine" label={t('speechEngine')} help={t('speechEngineHelp')} options={engines?.speech} value={config.speechNodeId} disabled={!mayEdit} onChange={(v) => set({ speechNodeId: v })} testId="interpretation-config-speech-engine" />
      <EngineSelect id="si-translation-engine" label={t('translationEngine')} help={t('translationEngineHelp')} options={engines?.translation} value={config.engineId} disabled={!mayEdit} onChange={(v) => set({ engineId: v })} testId="interpretation-config-translation-engine" />
      <ResourcePickers value={{ memories: config.memories, termBases: config.termBases }} onChange={(v) => set(v)} disabled={!mayEdit} testIds={{ memories: 'interpretation-config-memories', termBases: 'interpretation-config-terms' }} />
      <FormGroup label={t('speakerLabels')} helperText={answer.voiceprints.available ? (answer.voiceprints.enrolled ? t('voiceprintsReady') : t('voiceprintsNone')) : t('voiceprintsOff')}>
        <Checkbox label={t('speakerLabelsOn')} checked={config.speakerLabels} disabled={!mayEdit} onChange={() => set({ speakerLabels: !config.speakerLabels })} />
      </FormGroup>
      <FormGroup label={t('fontSize')} labelFor="si-font">
        <NumericInput id="si-font" min={16} max={120} value={config.caption.fontSize} disabled={!mayEdit} onValueChange={(n) => Number.isFinite(n) && setCaption({ fontSize: Math.round(n) })} data-testid="interpretation-config-font" />
      </FormGroup>
      <RadioGroup label={t('shown')} inline selectedValue={config.caption.languages} disabled={!mayEdit} onChange={(e) => setCaption({ languages: e.currentTarget.value as 'one' | 'two' })}>
        <Radio value="two" label={t('twoLanguages')} />
        <Radio value="one" label={t('oneLanguage')} />
      </RadioGroup>
      <RadioGroup label={t('theme')} inline selectedValue={config.caption.theme} disabled={!mayEdit} onChange={(e) => setCaption({ theme: e.currentTarget.value as 'dark' | 'light' })}>
        <Radio value="dark" label={t('themeDark')} />
        <Radio value="light" label={t('themeLight')} />
      </RadioGroup>
      {error && (
        <Callout intent={Intent.DANGER} data-testid="interpretation-config-error">
          {error}
        </Callout>
      )}
      <div>
        <Button intent={Intent.PRIMARY} icon="floppy-disk" text={t('save')} loading={saving} disabled={!mayEdit} onClick={() => void save()} data-testid="interpretation-config-save" />
      </div>
    </div>
  );
}
