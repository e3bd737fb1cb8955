import { Callout, Card, H3, Intent, NonIdealState, Spinner, Switch } from '@blueprintjs/core';
import { usePermission, usePlatform, useTranslation } from '@linguaport/sdk/console';
import { SWITCH_KEYS } from '../shared/rules.js';
import { useConfigGroup } from './config.js';

/** The super-administrator switches: guest login, self-registration, slider, log-out button, expiry notice. */
export function AdminSettings() {
  const { t, i18n } = useTranslation();
  const { api, notify } = usePlatform();
  const canEdit = usePermission().hasButton('systemConfig:edit');
  const [load, refresh] = useConfigGroup('switch');

  if (load.state === 'loading') return <NonIdealState icon={<Spinner size={24} />} description={t('loading')} />;
  if (load.state === 'failed') return <Callout intent={Intent.DANGER} style={{ margin: 20 }}>{t('loadFailed', { msg: load.msg })}</Callout>;

  const flip = async (key: string, on: boolean) => {
    await api.put('/systemConfig/updateConfig', { configKey: key, configValue: on ? '1' : '0' });
    notify.success(t('saved'));
    refresh();
  };
  const present = SWITCH_KEYS.filter((k) => load.entries.has(k));
  return (
    <div data-testid="translation-admin-view" style={{ padding: 20, display: 'grid', gap: 16, maxWidth: 720 }}>
      <H3>{t('adminTitle')}</H3>
      <Card>
        {present.map((k) => {
          const e = load.entries.get(k)!;
          return (
            <div key={k} style={{ marginBottom: 12 }}>
              <Switch
                large
                data-testid={`switch-${k}`}
                checked={e.configValue === '1'}
                disabled={!canEdit}
                label={i18n.language.startsWith('zh') ? e.nameZh : e.nameEn}
                onChange={(ev) => void flip(k, ev.currentTarget.checked)}
              />
              <div className="bp6-text-muted" style={{ marginLeft: 46 }}>{t(`switchHelp.${k}`)}</div>
            </div>
          );
        })}
      </Card>
    </div>
  );
}
