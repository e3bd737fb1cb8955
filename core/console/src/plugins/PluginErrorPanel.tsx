import { Button, Callout } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { PluginLoadError } from './errors.js';

interface Props {
  error: PluginLoadError;
  version?: string;
  onRetry(): void;
}

/** The failure of one plugin, shown on its own route only, in the console's language. */
export function PluginErrorPanel({ error, version, onRetry }: Props) {
  const { t } = useTranslation('core');
  return (
    <div className="lp-plugin-error" data-testid="plugin-error" data-error-kind={error.kind} data-plugin={error.pluginId}>
      <Callout intent="danger" title={t('plugin.errorTitle')}>
        <p data-testid="plugin-error-reason">{t(`plugin.kind.${error.kind}`, { ...error.details })}</p>
        <p className="lp-muted">{t('plugin.pluginLabel')} <span translate="no">{error.pluginId} {version ?? ''}</span></p>
        <pre className="lp-plugin-error-detail" translate="no">{error.message}</pre>
        <Button intent="primary" onClick={onRetry} data-testid="plugin-retry" text={t('plugin.retry')} />
      </Callout>
    </div>
  );
}
