import { Container } from 'inversify';
import { Tokens, type PlatformServices } from '@linguaport/sdk/console';
import { Core, type Kernel } from '../container.js';
import { slotService } from './SlotOutlet.js';
import { socketUrl } from '../bus/ws-bridge.js';

/**
 * A child container per plugin (parent = root) holding only the SDK services, bound for that
 * plugin; its views reach them through PlatformContext.
 */
export function createPluginContainer(kernel: Kernel, pluginId: string, navigate: (path: string) => void, namespaces: string[] = [pluginId]): Container {
  const child = new Container({ parent: kernel.container });
  child.bind(Tokens.PluginId).toConstantValue(pluginId);
  child.bind(Tokens.Namespaces).toConstantValue(namespaces);
  // The SDK's tokens name the root's services (resolved through the parent, never copied).
  child.bind(Tokens.Api).toService(Core.Http);
  child.bind(Tokens.Session).toService(Core.Session);
  child.bind(Tokens.Permissions).toService(Core.Permissions);
  child.bind(Tokens.Bus).toService(Core.Bus);
  child.bind(Tokens.Notify).toService(Core.Notifier);
  child.bind(Tokens.I18n).toService(Core.I18n);
  child.bind(Tokens.Navigate).toConstantValue(navigate);
  child.bind(Tokens.Slots).toConstantValue(slotService(kernel));
  // Plugins' own sockets authenticate like the event socket: the session token in the query.
  child.bind(Tokens.SocketUrl).toConstantValue((path: string, query: Record<string, string> = {}) => {
    const token = kernel.session.token;
    if (!token) return null;
    const extra = new URLSearchParams(query).toString();
    return socketUrl(`/api${path}${extra ? `?${extra}` : ''}`, token, globalThis.location);
  });
  return child;
}

export function platformServices(container: Container): PlatformServices {
  return {
    pluginId: container.get<string>(Tokens.PluginId),
    namespaces: container.get<string[]>(Tokens.Namespaces),
    api: container.get(Tokens.Api),
    session: container.get(Tokens.Session),
    permissions: container.get(Tokens.Permissions),
    bus: container.get(Tokens.Bus),
    notify: container.get(Tokens.Notify),
    i18n: container.get(Tokens.I18n),
    navigate: container.get<(path: string) => void>(Tokens.Navigate),
    slots: container.get(Tokens.Slots),
    socketUrl: container.get(Tokens.SocketUrl),
  };
}
