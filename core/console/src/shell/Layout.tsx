import { Suspense, useMemo, useState } from 'react';
import { Outlet, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { Locale } from '@linguaport/sdk/shared';
import { useKernel } from '../container.js';
import { menuChain } from '../auth/permissions.js';
import { Cookies, readCookie, writeCookie } from '../auth/storage.js';
import { switchLocale } from '../i18n.js';
import { useAccessVersion } from '../router/useAccessVersion.js';
import { Sidebar } from './Sidebar.js';
import { TopBar } from './TopBar.js';
import { useDocumentTitle } from './title.js';
import { ProgressBar } from '../router/ProgressBar.js';

/**
 * The minimal layout shell: sidebar, top bar, content. Tags view, settings panel and the
 * about/user panels of spec 01 2.7 come later and slot in here.
 */
export function Layout() {
  const kernel = useKernel();
  const { access, registry, session, company, loader, i18n } = kernel;
  const { t } = useTranslation('core');
  const version = useAccessVersion();
  const location = useLocation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [collapsed, setCollapsed] = useState(() => readCookie(Cookies.sidebar) === '0');

  const tree = useMemo(() => access.menuTree(), [access, version]);
  const path = location.pathname;
  const route = registry.route(path);
  // A detail page highlights (and is breadcrumbed under) its parent menu.
  const activePath = route?.parent ?? path;
  const chain = menuChain(tree, activePath);

  const screen = path === '/custom' ? (search.get('name') ?? t('screen.custom')) : route ? t(route.title) : (chain.at(-1)?.permissionName ?? t('screen.home'));
  useDocumentTitle(screen, company.siteTitle);

  const crumbs = [
    ...chain.map((e) => ({ text: e.permissionName })),
    ...(route?.parent || chain.length === 0 ? [{ text: screen }] : []),
  ];
  const state = session.current();

  return (
    <div className={`lp-layout${collapsed ? ' lp-sidebar-collapsed' : ''}`}>
      <Sidebar tree={tree} activePath={activePath} collapsed={collapsed} />
      <div className="lp-main">
        <TopBar
          crumbs={crumbs}
          userName={state.user?.realName || state.user?.username || ''}
          departmentName={state.departmentName}
          locale={(i18n.language as Locale) ?? 'zh-CN'}
          showLogout={company.hasLogout}
          onToggleSidebar={() => {
            writeCookie(Cookies.sidebar, collapsed ? '1' : '0', 365);
            setCollapsed(!collapsed);
          }}
          onLocale={(lng) => void switchLocale(i18n, lng, (l) => loader.loadLocaleForAll(l)).then(() => access.reloadMenus())}
          onLogout={() => void access.logout().then(() => navigate('/login'))}
        />
        <main className={`lp-content${route?.fluid || path === '/custom' ? ' lp-fluid' : ''}`} data-testid="shell-content">
          <Suspense fallback={<ProgressBar active />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
