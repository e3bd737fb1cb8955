import { createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { AccessService } from './auth/access.js';
import { PermissionStore } from './auth/permissions.js';
import { SessionStore } from './auth/session.js';
import { EventBus } from './bus/event-bus.js';
import { WsBridge } from './bus/ws-bridge.js';
import { applyTheme, CompanyConfig, loadCompanyConfig } from './config/company.js';
import { createRootContainer, type Kernel } from './container.js';
import { HttpClient } from './http/client.js';
import { ToastNotifier } from './http/notifier.js';
import { createI18n, savedLocale } from './i18n.js';
import { installBlueprintLabels } from './blueprint-labels.js';
import { markLoginExpired } from './auth/expired.js';
import { PluginLoader } from './plugins/loader.js';
import { RegistryStore } from './plugins/registry.js';
import { registerSharedModules } from './plugins/shared-modules.js';
import { App } from './App.js';

/**
 * company config -> i18n -> root container -> session -> router -> mount. Each step gets what the
 * previous ones made; nothing here is a module-level singleton.
 */
export async function bootstrap(rootElement: HTMLElement): Promise<{ kernel: Kernel; root: Root }> {
  registerSharedModules();
  const session = new SessionStore();
  const permissions = new PermissionStore();
  const registry = new RegistryStore();
  // The notifier needs i18n and the client needs the notifier; the client exists first (without
  // toasts) only to read the company configuration that precedes i18n.
  let notifier: ToastNotifier | null = null;
  const http = new HttpClient({
    token: () => session.token,
    toast: (toast) => notifier?.toast(toast),
    endSession: (reload) => {
      // A late answer for a session that already ended here (logout) changes nothing.
      if (!session.token) return;
      session.reset();
      permissions.clear();
      // The toast dies with the reload: the login page shows the expiry from this mark instead.
      markLoginExpired();
      if (reload) window.location.reload();
    },
    pathname: () => window.location.pathname,
    locale: () => i18nRef?.language ?? savedLocale(),
  });
  let i18nRef: { language: string } | null = null;

  const company: CompanyConfig = await loadCompanyConfig(http);
  applyTheme(company);

  const i18n = await createI18n();
  i18nRef = i18n;
  installBlueprintLabels(i18n);
  notifier = new ToastNotifier(i18n);
  const access = new AccessService(http, session, permissions, registry, i18n, (m) => notifier?.error(m));
  const loader = new PluginLoader({ registry: () => registry.get(), i18n });
  const bus = new EventBus();
  const ws = new WsBridge({
    bus,
    token: () => session.token,
    socketPath: async () => (await http.get<{ path: string }>('/user/showWebSocketInfo', { silent: true })).path,
  });
  const kernel = createRootContainer({ http, session, permissions, access, registry, loader, bus, ws, notifier, i18n, company });

  // The WebSocket bridge runs only while signed in with menus loaded.
  permissions.changes().subscribe(() => (permissions.rolesLoaded && session.token ? ws.start() : ws.stop()));

  const root = createRoot(rootElement);
  root.render(createElement(App, { kernel }));
  return { kernel, root };
}
