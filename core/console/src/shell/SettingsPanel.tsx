import { Drawer, DrawerSize, Switch } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { THEME_PALETTE, type ShellSettings } from './settings.js';

/** The hidden settings panel (spec 01 2.7): theme colour, tags view, fixed header, sidebar logo. */
export function SettingsPanel({ open, settings, themeColor, onChange, onClose }: {
  open: boolean;
  settings: ShellSettings;
  themeColor: string;
  onChange(next: ShellSettings): void;
  onClose(): void;
}) {
  const { t } = useTranslation('core');
  return (
    <Drawer isOpen={open} onClose={onClose} size={DrawerSize.SMALL} title={t('settings.title')} canOutsideClickClose>
      <div className="lp-settings" data-testid="settings-panel">
        <h5 className="bp6-heading">{t('settings.theme')}</h5>
        <div className="lp-swatches">
          {THEME_PALETTE.map((c) => (
            <button
              key={c}
              type="button"
              className={`lp-swatch${c.toLowerCase() === themeColor.toLowerCase() ? ' lp-swatch-on' : ''}`}
              style={{ background: c }}
              aria-label={c}
              title={c}
              data-testid={`theme-${c.slice(1)}`}
              onClick={() => onChange({ ...settings, themeColor: c })}
            />
          ))}
          <input type="color" aria-label={t('settings.customColor')} value={themeColor} onChange={(e) => onChange({ ...settings, themeColor: e.currentTarget.value })} />
        </div>
        <Switch label={t('settings.tagsView')} checked={settings.tagsView} onChange={(e) => onChange({ ...settings, tagsView: e.currentTarget.checked })} data-testid="setting-tagsView" />
        <Switch label={t('settings.fixedHeader')} checked={settings.fixedHeader} onChange={(e) => onChange({ ...settings, fixedHeader: e.currentTarget.checked })} data-testid="setting-fixedHeader" />
        <Switch label={t('settings.sidebarLogo')} checked={settings.sidebarLogo} onChange={(e) => onChange({ ...settings, sidebarLogo: e.currentTarget.checked })} data-testid="setting-sidebarLogo" />
      </div>
    </Drawer>
  );
}
