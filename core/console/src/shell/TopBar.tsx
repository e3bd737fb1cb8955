import { Breadcrumbs, Button, HTMLSelect, Navbar, type BreadcrumbProps } from '@blueprintjs/core';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Locale } from '@linguaport/sdk/shared';
import type { SessionState } from '@linguaport/sdk/console';
import { LOCALES } from '../i18n.js';
import type { Department } from '../auth/types.js';
import { AboutPanel } from './AboutPanel.js';
import { NewsButton } from './NewsButton.js';
import { useOutsideClose } from './panels.js';
import { UserPanel } from './UserPanel.js';

interface Props {
  crumbs: BreadcrumbProps[];
  state: SessionState;
  departments: Department[];
  locale: Locale;
  showLogout: boolean;
  showNews: boolean;
  onToggleSidebar(): void;
  onLocale(locale: Locale): void;
  onLogout(): void;
  onSwitchDepartment(id: number): void;
  onAccount(tab: 'basic' | 'password' | 'apiKey'): void;
  onSettingsPanel(): void;
}

const LOCALE_LABELS: Record<Locale, string> = { 'zh-CN': '中文', 'en-US': 'English' };

/** Sidebar toggle, breadcrumb, language, news, about panel, user panel, settings (spec 01 2.7). */
export function TopBar(props: Props) {
  const { t } = useTranslation('core');
  // The user and about panels are mutually exclusive: one state holds which is open.
  const [panel, setPanel] = useState<'user' | 'about' | null>(null);
  const userRef = useRef<HTMLDivElement>(null);
  const aboutRef = useRef<HTMLDivElement>(null);
  useOutsideClose(panel !== null, [userRef, aboutRef], () => setPanel(null));
  const toggle = (p: 'user' | 'about') => setPanel(panel === p ? null : p);
  const userName = props.state.user?.realName || props.state.user?.username || '';

  return (
    <Navbar className="lp-topbar" data-testid="topbar">
      <Navbar.Group align="left">
        <Button variant="minimal" icon="menu" aria-label={t('shell.toggleSidebar')} title={t('shell.toggleSidebar')} onClick={props.onToggleSidebar} data-testid="sidebar-toggle" />
        <Breadcrumbs className="lp-breadcrumbs" items={props.crumbs} />
      </Navbar.Group>
      <Navbar.Group align="right" className="lp-topbar-right">
        <HTMLSelect
          aria-label={t('shell.language')}
          value={props.locale}
          onChange={(e) => props.onLocale(e.currentTarget.value as Locale)}
          data-testid="locale-switch"
          options={LOCALES.map((l) => ({ value: l, label: LOCALE_LABELS[l] }))}
        />
        {props.showNews ? <NewsButton /> : null}
        <div className="lp-panel-anchor" ref={aboutRef}>
          <Button variant="minimal" icon="info-sign" aria-label={t('about.title')} title={t('about.title')} active={panel === 'about'} onClick={() => toggle('about')} data-testid="about-button" />
          {panel === 'about' ? <AboutPanel /> : null}
        </div>
        <div className="lp-panel-anchor" ref={userRef}>
          <Button variant="minimal" icon="user" text={userName} active={panel === 'user'} onClick={() => toggle('user')} data-testid="user-button" />
          <span className="lp-visually-hidden" data-testid="user-name">{userName}</span>
          {props.state.departmentName ? <span className="lp-visually-hidden" data-testid="user-department">{props.state.departmentName}</span> : null}
          {panel === 'user' ? (
            <UserPanel
              state={props.state}
              departments={props.departments}
              showLogout={props.showLogout}
              onSwitchDepartment={(id) => { setPanel(null); props.onSwitchDepartment(id); }}
              onEditProfile={() => { setPanel(null); props.onAccount('basic'); }}
              onSettings={() => { setPanel(null); props.onAccount('password'); }}
              onLogout={() => { setPanel(null); props.onLogout(); }}
            />
          ) : null}
        </div>
        <Button variant="minimal" icon="settings" aria-label={t('settings.title')} title={t('settings.title')} onClick={props.onSettingsPanel} data-testid="settings-button" />
      </Navbar.Group>
    </Navbar>
  );
}
