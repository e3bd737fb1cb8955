import { Button, Callout } from '@blueprintjs/core';
import { Suspense, useEffect, useMemo, useState } from 'react';
import { Outlet, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { Locale } from '@linguaport/sdk/shared';
import { useKernel } from '../container.js';
import { findMenu, firstLeafTarget } from '../auth/permissions.js';
import { Cookies, readCookie, sessionStore, writeCookie } from '../auth/storage.js';
import { switchLocale } from '../i18n.js';
import { useAccessVersion } from '../router/useAccessVersion.js';
import { ProgressBar } from '../router/ProgressBar.js';
import { AccountDialog, type AccountTab } from './AccountDialog.js';
import { breadcrumbs } from './breadcrumb.js';
import { EngineNotice } from './EngineNotice.js';
import { Footer } from './Footer.js';
import { SettingsPanel } from './SettingsPanel.js';
import { loadSettings, saveSettings, type ShellSettings } from './settings.js';
import { Sidebar } from './Sidebar.js';
import { MESSAGES_PATH } from './messages.js';
import { pageBehaviour } from './page.js';
import { addView, afterClose, closeAll, closeOthers, closeView, type VisitedView } from './tags.js';
import { TagsView } from './TagsView.js';
import { TopBar } from './TopBar.js';
import { useDocumentTitle } from './title.js';
import { useLiveAccess } from './live-access.js';

export const MOBILE_BREAKPOINT = 992;

const VIEWS_KEY = 'visitedViews';

function loadViews(): VisitedView[] {
  try {
    const raw = sessionStore()?.getItem(VIEWS_KEY);
    return raw ? (JSON.parse(raw) as VisitedView[]) : [];
  } catch {
    return [];
  }
}

function useMobile(): boolean {
  const [mobile, setMobile] = useState(() => window.innerWidth < MOBILE_BREAKPOINT);
  useEffect(() => {
    const onResize = () => setMobile(window.innerWidth < MOBILE_BREAKPOINT);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return mobile;
}

/** The layout shell of spec 01 2.7. */
export function Layout() {
  const kernel = useKernel();
  const { access, registry, session, company, loader, i18n } = kernel;
  const { t } = useTranslation('core');
  const version = useAccessVersion();
  const location = useLocation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const mobile = useMobile();
  // Opened on first load unless the sidebar cookie says 0 (spec 01 section 4).
  const [opened, setOpened] = useState(() => readCookie(Cookies.sidebar) !== '0');
  const [settings, setSettings] = useState<ShellSettings>(() => loadSettings());
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [account, setAccount] = useState<AccountTab | null>(null);
  // Kept in session storage: the refresh helper (/redirect) leaves the shell for a moment.
  const [views, setViewsState] = useState<VisitedView[]>(() => loadViews());
  const setViews = (next: VisitedView[] | ((v: VisitedView[]) => VisitedView[])) =>
    setViewsState((old) => {
      const value = typeof next === 'function' ? next(old) : next;
      sessionStore()?.setItem(VIEWS_KEY, JSON.stringify(value));
      return value;
    });
  const live = useLiveAccess(kernel, t);

  const tree = useMemo(() => access.menuTree(), [access, version]);
  const home = firstLeafTarget(tree) ?? '/';
  const path = location.pathname;
  const route = registry.route(path);
  // A detail page highlights (and is breadcrumbed under) its parent menu.
  const activePath = route?.parent ?? path;
  // A plugin's title key resolves once its locale files are loaded (on its first visit); until then the
  // menu's own name stands in, so a tab or breadcrumb never shows a bare key.
  // Worked out from the path in the current language, so every open tab re-translates on a language switch.
  const titleOf = (p: string, query: URLSearchParams): string => {
    const r = registry.route(p);
    const m = findMenu(tree, p);
    const fromRoute = r && (i18n.exists(r.title) ? t(r.title) : (m?.permissionName ?? t(r.title)));
    if (p === MESSAGES_PATH) return t('news.title');
    return p === '/custom' ? (query.get('name') ?? t('screen.custom')) : (fromRoute || (m?.permissionName ?? t('screen.home')));
  };
  const screen = titleOf(path, search);
  useDocumentTitle(screen, company.siteTitle);
  const page = pageBehaviour(route, path, sessionStore());
  const crumbs = breadcrumbs({ tree, path, parent: route?.parent, screen, crumb: page.crumb })
    .map((c) => (c.href ? { text: c.text, onClick: () => void navigate(c.href!) } : { text: c.text }));

  const themeColor = settings.themeColor ?? company.themeColor;
  useEffect(() => {
    document.documentElement.style.setProperty('--lp-theme', themeColor);
  }, [themeColor]);

  // The sidebar closes on mobile and on each route change there.
  useEffect(() => {
    if (mobile) setOpened(false);
  }, [mobile, path]);

  useEffect(() => {
    if (path === '/' || path.startsWith('/redirect')) return;
    setViews((v) => addView(v, { path, title: screen, fullPath: path + location.search, query: Object.fromEntries(search), meta: { affix: path === home } }));
  }, [path, location.search, screen, home]);

  const changeSettings = (next: ShellSettings) => {
    setSettings(next);
    saveSettings(next);
  };
  const toggleSidebar = () => {
    if (!mobile) writeCookie(Cookies.sidebar, opened ? '0' : '1', 365);
    setOpened(!opened);
  };
  const close = (p: string) => {
    const next = closeView(views, p);
    setViews(next);
    if (p === path) void navigate(afterClose(next, home));
  };
  const state = session.current();
  const { fluid } = page;

  return (
    <div className={`lp-layout${!opened ? ' lp-sidebar-collapsed' : ''}${mobile ? ' lp-is-mobile' : ''}${settings.fixedHeader ? ' lp-fixed-header' : ''}`} data-testid="layout" data-device={mobile ? 'mobile' : 'desktop'}>
      {mobile && opened ? <div className="lp-backdrop" onClick={() => setOpened(false)} /> : null}
      <Sidebar
        tree={tree}
        activePath={activePath}
        collapsed={!opened}
        mobile={mobile}
        logo={settings.sidebarLogo ? { src: company.logo, title: company.siteTitle, home } : null}
      />
      <div className="lp-main">
        <div className="lp-header">
          <TopBar
            crumbs={crumbs}
            state={state}
            departments={session.departments}
            locale={(i18n.language as Locale) ?? 'zh-CN'}
            showLogout={company.hasLogout}
            // Every signed-in user has the message dropdown: the messages are their own (issue 22).
            showNews
            onToggleSidebar={toggleSidebar}
            onLocale={(lng) =>
              void switchLocale(i18n, lng, (l) => loader.loadLocaleForAll(l)).then(() => {
                void kernel.http.put('/user/locale', { locale: lng }, { silent: true }).catch(() => {});
                return access.reloadMenus();
              })
            }
            onLogout={() => {
              // The server closes this session's socket on logout; a reconnect attempt with the old
              // token would meet 601 and end in an "expired" reload.
              kernel.ws.stop();
              void access.logout().then(() => navigate('/login'));
            }}
            onSwitchDepartment={(id) => void access.switchDepartment(id).then(() => { setViews([]); void navigate('/', { replace: true }); }, () => {})}
            onAccount={setAccount}
            onSettingsPanel={() => setSettingsOpen(true)}
          />
          {settings.tagsView ? (
            <TagsView
              views={views.map((v) => ({ ...v, title: titleOf(v.path, new URLSearchParams(v.query)) }))}
              activePath={path}
              onClose={close}
              onRefresh={(v) => void navigate(`/redirect${v.fullPath}`, { replace: true })}
              onCloseOthers={(v) => {
                setViews(closeOthers(views, v.path));
                if (v.path !== path) void navigate(v.fullPath);
              }}
              onCloseAll={() => {
                const next = closeAll(views);
                setViews(next);
                void navigate(afterClose(next, home));
              }}
            />
          ) : null}
        </div>
        <main className={`lp-content${fluid ? ' lp-fluid' : ''}`} data-testid="shell-content">
          {live.upgrade ? (
            <Callout intent="primary" className="lp-upgrade" data-testid="plugin-upgraded">
              {t('live.upgraded', { id: live.upgrade.id, version: live.upgrade.version })}{' '}
              <Button size="small" intent="primary" text={t('live.reloadView')} onClick={() => { live.dismiss(); void navigate(`/redirect${path}${location.search}`, { replace: true }); }} />
            </Callout>
          ) : null}
          <Suspense fallback={<ProgressBar active />}>
            <Outlet />
          </Suspense>
        </main>
        <Footer filingNumber={company.get('FILING_NUMBER')} />
      </div>
      <SettingsPanel open={settingsOpen} settings={settings} themeColor={themeColor} onChange={changeSettings} onClose={() => setSettingsOpen(false)} />
      {account ? <AccountDialog tab={account} onTab={setAccount} onClose={() => setAccount(null)} /> : null}
      <EngineNotice version={version} />
    </div>
  );
}
