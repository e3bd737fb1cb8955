import { Navigate, useLocation } from 'react-router-dom';

/** /redirect/<path>: re-enter <path> (used to refresh a view by leaving and coming back). */
export function Redirect() {
  const { pathname, search } = useLocation();
  const target = pathname.replace(/^\/redirect/, '') || '/';
  return <Navigate to={target + search} replace />;
}
