import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigate, type Location } from 'react-router-dom';
import { useKernel } from '../container.js';
import { ProgressBar } from './ProgressBar.js';

/**
 * Runs the navigation guard (spec 01 2.6) on every location change: cancels pending requests
 * while signed in, asks AccessService, then redirects, reloads or lets the routes render. The
 * routes keep showing the last location that passed until the new one is decided, so a page the
 * guard will turn away is never mounted.
 */
export function Guard({ children }: { children: (location: Location) => ReactNode }) {
  const { access, http, session, notifier, i18n } = useKernel();
  const location = useLocation();
  const navigate = useNavigate();
  const [passed, setPassed] = useState<Location | null>(null);
  // /sso is reloaded only when reached by navigation inside the console; the page load that a
  // reload (or the identity provider) makes must render it, or it would reload for ever.
  const firstRun = useRef(true);
  const key = location.pathname + location.search;

  useEffect(() => {
    let live = true;
    if (session.token) http.cancel.cancelAll();
    const initial = firstRun.current;
    firstRun.current = false;
    if (location.pathname === '/sso' && initial) {
      setPassed(location);
      return;
    }
    void access.resolve(location.pathname, key).then((decision) => {
      if (!live) return;
      if (decision.action === 'reload') window.location.reload();
      else if (decision.action === 'redirect') {
        // A page the user's roles do not include: say why they landed elsewhere.
        if (decision.reason === 'forbidden') notifier.warning(i18n.t('guard.forbidden', { ns: 'core', path: location.pathname }));
        void navigate(decision.to, { replace: true });
      }
      else setPassed(location);
    });
    return () => {
      live = false;
    };
  }, [key]);

  const settled = passed !== null && passed.pathname + passed.search === key;
  return (
    <>
      <ProgressBar active={!settled} />
      {passed !== null ? children(passed) : null}
    </>
  );
}
