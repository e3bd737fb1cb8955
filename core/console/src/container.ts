import 'reflect-metadata';
import { Container } from 'inversify';
import { createContext, useContext } from 'react';
import type { i18n as I18n } from 'i18next';
import type { AccessService } from './auth/access.js';
import type { PermissionStore } from './auth/permissions.js';
import type { SessionStore } from './auth/session.js';
import type { EventBus } from './bus/event-bus.js';
import type { WsBridge } from './bus/ws-bridge.js';
import type { CompanyConfig } from './config/company.js';
import type { HttpClient } from './http/client.js';
import type { ToastNotifier } from './http/notifier.js';
import type { PluginLoader } from './plugins/loader.js';
import type { RegistryStore } from './plugins/registry.js';

/** Tokens of the host's own services in the root container; plugins never see these. */
export const Core = {
  Http: Symbol('core.http'),
  Session: Symbol('core.session'),
  Permissions: Symbol('core.permissions'),
  Access: Symbol('core.access'),
  Registry: Symbol('core.registry'),
  Loader: Symbol('core.loader'),
  Bus: Symbol('core.bus'),
  WsBridge: Symbol('core.wsBridge'),
  Notifier: Symbol('core.notifier'),
  I18n: Symbol('core.i18n'),
  Company: Symbol('core.company'),
} as const;

export interface Kernel {
  container: Container;
  http: HttpClient;
  session: SessionStore;
  permissions: PermissionStore;
  access: AccessService;
  registry: RegistryStore;
  loader: PluginLoader;
  bus: EventBus;
  ws: WsBridge;
  notifier: ToastNotifier;
  i18n: I18n;
  company: CompanyConfig;
}

export function createRootContainer(services: Omit<Kernel, 'container'>): Kernel {
  const container = new Container();
  container.bind(Core.Http).toConstantValue(services.http);
  container.bind(Core.Session).toConstantValue(services.session);
  container.bind(Core.Permissions).toConstantValue(services.permissions);
  container.bind(Core.Access).toConstantValue(services.access);
  container.bind(Core.Registry).toConstantValue(services.registry);
  container.bind(Core.Loader).toConstantValue(services.loader);
  container.bind(Core.Bus).toConstantValue(services.bus);
  container.bind(Core.WsBridge).toConstantValue(services.ws);
  container.bind(Core.Notifier).toConstantValue(services.notifier);
  container.bind(Core.I18n).toConstantValue(services.i18n);
  container.bind(Core.Company).toConstantValue(services.company);
  return { container, ...services };
}

export const KernelContext = createContext<Kernel | null>(null);

export function useKernel(): Kernel {
  const kernel = useContext(KernelContext);
  if (!kernel) throw new Error('useKernel outside the console root');
  return kernel;
}
