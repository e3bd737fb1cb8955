import { Breadcrumbs, Button, HTMLSelect, Navbar, type BreadcrumbProps } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { Locale } from '@linguaport/sdk/shared';
import { LOCALES } from '../i18n.js';

interface Props {
  crumbs: BreadcrumbProps[];
  userName: string;
  departmentName: string | null;
  locale: Locale;
  showLogout: boolean;
  onToggleSidebar(): void;
  onLocale(locale: Locale): void;
  onLogout(): void;
}

const LOCALE_LABELS: Record<Locale, string> = { 'zh-CN': '中文', 'en-US': 'English' };

export function TopBar(props: Props) {
  const { t } = useTranslation('core');
  return (
    <Navbar className="lp-topbar">
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
        <span className="lp-user" data-testid="user-name">{props.userName}</span>
        {props.departmentName ? <span className="lp-department" title={t('shell.department')} data-testid="user-department">{props.departmentName}</span> : null}
        {props.showLogout ? <Button variant="minimal" icon="log-out" text={t('shell.logout')} onClick={props.onLogout} data-testid="logout" /> : null}
      </Navbar.Group>
    </Navbar>
  );
}
