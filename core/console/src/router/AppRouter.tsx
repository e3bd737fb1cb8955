import { useMemo } from 'react';
import { BrowserRouter, Navigate, Route, Routes, type Location } from 'react-router-dom';
import { useKernel } from '../container.js';
import { Guard } from './Guard.js';
import { buildRouteSpecs, renderRouteSpecs } from './routes.js';
import { useAccessVersion } from './useAccessVersion.js';
import { Layout } from '../shell/Layout.js';
import { EmptyState } from '../shell/EmptyState.js';
import { Login } from '../pages/Login.js';
import { LoginSelect } from '../pages/LoginSelect.js';
import { NotFound } from '../pages/NotFound.js';
import { Unauthorized } from '../pages/Unauthorized.js';
import { Redirect } from '../pages/Redirect.js';
import { CustomPage } from '../pages/CustomPage.js';

function AppRoutes({ location }: { location: Location }) {
  const { access, registry, permissions } = useKernel();
  const version = useAccessVersion();
  const specs = useMemo(
    () => buildRouteSpecs(access.menuTree(), registry.get(), (p) => permissions.hasRoute(p)),
    [version, access, registry, permissions],
  );
  return (
    <Routes location={location}>
      <Route path="/login" element={<Login />} />
      <Route path="/loginSelect" element={<LoginSelect />} />
      <Route path="/redirect/*" element={<Redirect />} />
      <Route path="/401" element={<Unauthorized />} />
      <Route path="/404" element={<NotFound />} />
      <Route element={<Layout />}>
        <Route index element={<EmptyState />} />
        <Route path="/custom" element={<CustomPage />} />
        {renderRouteSpecs(specs)}
      </Route>
      {/* Added last: anything else is unknown. */}
      <Route path="*" element={<Navigate to="/404" replace />} />
    </Routes>
  );
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <Guard>{(location) => <AppRoutes location={location} />}</Guard>
    </BrowserRouter>
  );
}
