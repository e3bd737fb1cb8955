import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { merge, debounceTime } from 'rxjs';
import type { i18n as I18n } from 'i18next';
import type { Kernel } from '../container.js';
import { decide } from '../auth/guard.js';

export interface PluginUpgrade {
  id: string;
  version: string;
}

/**
 * Access changes while the console is open (wave-2 contract): on `permissions.changed` or
 * `registry.changed` the menus and the registry are fetched again without a page reload; if the
 * open route is no longer allowed the user is told and moved to the first permitted page. On
 * `plugin.upgraded` the open views of that plugin get a notice (returned for the layout to show).
 */
export function useLiveAccess(kernel: Kernel, t: I18n['t']): { upgrade: PluginUpgrade | null; dismiss(): void } {
  const { bus, access, notifier, registry, loader } = kernel;
  const location = useLocation();
  const navigate = useNavigate();
  const where = useRef(location);
  where.current = location;
  const [upgrade, setUpgrade] = useState<PluginUpgrade | null>(null);

  useEffect(() => {
    const reload = merge(bus.events('permissions.changed'), bus.events('registry.changed'))
      // One reload for a burst (a role edit publishes for every affected user at once).
      .pipe(debounceTime(150))
      .subscribe(() => {
        // The page open when the change arrived: the new route table may already have moved away
        // from it (the catch-all follows the guard), so the notice is decided on this one.
        const { pathname, search } = where.current;
        void access.reloadMenus().then(
          () => {
            if (pathname === '/custom') return;
            const decision = decide(access.guardState(), pathname, pathname + search);
            if (decision.action === 'pass') return;
            notifier.warning(t('live.routeGone'));
            if (where.current.pathname === pathname) void navigate(access.guardState().firstPath ?? '/', { replace: true });
          },
          () => {},
        );
      });
    const upgraded = bus.events<PluginUpgrade>('plugin.upgraded').subscribe(({ payload }) => {
      if (!payload?.id) return;
      // The next visit loads the new bundle; an open view keeps running the old one until refreshed.
      loader.forget(payload.id);
      const open = registry.route(where.current.pathname)?.plugin;
      void access.reloadMenus().catch(() => {});
      if (open === payload.id) setUpgrade(payload);
    });
    return () => {
      reload.unsubscribe();
      upgraded.unsubscribe();
    };
  }, [bus, access]);

  // The notice belongs to the view it was shown on.
  useEffect(() => {
    if (upgrade && registry.route(location.pathname)?.plugin !== upgrade.id) setUpgrade(null);
  }, [location.pathname]);

  return { upgrade, dismiss: () => setUpgrade(null) };
}
