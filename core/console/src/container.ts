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

type KernelServices = Omit<Kernel, 'container'>;

/** Which token holds which service: the root container is their only owner. */
const TOKEN_OF: { readonly [K in keyof KernelServices]: symbol } = {
  http: Core.Http,
  session: Core.Session,
  permissions: Core.Permissions,
  access: Core.Access,
  registry: Core.Registry,
  loader: Core.Loader,
  bus: Core.Bus,
  ws: Core.WsBridge,
  notifier: Core.Notifier,
  i18n: Core.I18n,
  company: Core.Company,
};

/** Binds the host's services in a new root container; the kernel returned reads them from it. */
export function createRootContainer(services: KernelServices): Kernel {
  const container = new Container();
  for (const name of Object.keys(TOKEN_OF) as Array<keyof KernelServices>) container.bind(TOKEN_OF[name]).toConstantValue(services[name]);
  return kernelOf(container);
}

/**
 * The host's services as the container resolves them: each property is a getter (nothing is copied
 * out), so `const { http, session } = useKernel()` and `container.get(Core.Http)` are the same object.
 */
export function kernelOf(container: Container): Kernel {
  const kernel = { container } as Kernel;
  for (const name of Object.keys(TOKEN_OF) as Array<keyof KernelServices>) {
    Object.defineProperty(kernel, name, { get: () => container.get(TOKEN_OF[name]), enumerable: true });
  }
  return kernel;
}

export const KernelContext = createContext<Kernel | null>(null);

export function useKernel(): Kernel {
  const kernel = useContext(KernelContext);
  if (!kernel) throw new Error('useKernel outside the console root');
  return kernel;
}
