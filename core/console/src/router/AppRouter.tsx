import { lazy, Suspense, useMemo } from 'react';
import { ProgressBar } from './ProgressBar.js';
import { BrowserRouter, Navigate, Route, Routes, type Location } from 'react-router-dom';
import { decide } from '../auth/guard.js';
import { useKernel } from '../container.js';
import { Guard } from './Guard.js';
import { buildRouteSpecs, renderRouteSpecs } from './routes.js';
import { useAccessVersion } from './useAccessVersion.js';
import { EmptyState } from '../shell/EmptyState.js';
import { Login } from '../pages/Login.js';
import { LoginSelect } from '../pages/LoginSelect.js';
import { NotFound } from '../pages/NotFound.js';
import { Unauthorized } from '../pages/Unauthorized.js';
import { Redirect } from '../pages/Redirect.js';
import { CustomPage } from '../pages/CustomPage.js';
import { Sso } from '../pages/Sso.js';
import { QuickAccess } from '../pages/QuickAccess.js';

// The shell (and Blueprint) is a split chunk: the login page paints without it.
const Layout = lazy(() => import('../shell/Layout.js').then((m) => ({ default: m.Layout })));
const Messages = lazy(() => import('../pages/Messages.js').then((m) => ({ default: m.Messages })));

/**
 * A path the current route table does not hold: the guard's rules say where it goes (a page that
 * exists but is not permitted goes to the first permitted path, an unknown one to /404). This also
 * covers the moment after a live permission change removed the open page's route.
 */
function Fallback({ location }: { location: Location }) {
  const { access } = useKernel();
  const { pathname, search } = location;
  const decision = decide(access.guardState(), pathname, pathname + search);
  const to = decision.action === 'redirect' ? decision.to : '/404';
  return <Navigate to={to === pathname ? '/404' : to} replace />;
}

function AppRoutes({ location }: { location: Location }) {
  const { access, registry, permissions, session } = useKernel();
  const version = useAccessVersion();
  const specs = useMemo(
    () => buildRouteSpecs(access.menuTree(), registry.get(), (p) => permissions.hasRoute(p)),
    [version, access, registry, permissions],
  );
  return (
    <Suspense fallback={<ProgressBar active />}>
    <Routes location={location}>
      <Route path="/login" element={<Login />} />
      <Route path="/loginSelect" element={<LoginSelect />} />
      <Route path="/sso" element={<Sso />} />
      <Route path="/quickAccess" element={<QuickAccess />} />
      <Route path="/redirect/*" element={<Redirect />} />
      <Route path="/401" element={<Unauthorized />} />
      <Route path="/404" element={<NotFound />} />
      <Route element={<Layout />}>
        <Route index element={<EmptyState />} />
        <Route path="/custom" element={<CustomPage />} />
        <Route path="/messages" element={<Messages />} />
        {renderRouteSpecs(specs)}
      </Route>
      {/* Added last: anything else is unknown. While menus are not loaded (logout, a department
          switch) the table is empty for a moment and the guard, not this route, decides. */}
      <Route path="*" element={permissions.rolesLoaded && session.token ? <Fallback location={location} /> : null} />
    </Routes>
    </Suspense>
  );
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <Guard>{(location) => <AppRoutes location={location} />}</Guard>
    </BrowserRouter>
  );
}
