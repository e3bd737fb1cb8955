// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { Tokens } from '@linguaport/sdk/console';
import { Core, createRootContainer, type Kernel } from '../src/container.js';
import { createPluginContainer, platformServices } from '../src/plugins/services.js';

/** Distinct marker objects standing for each host service: the test is about who owns them, not what they do. */
function services(): Omit<Kernel, 'container'> {
  const names = ['http', 'session', 'permissions', 'access', 'registry', 'loader', 'bus', 'ws', 'notifier', 'i18n', 'company'] as const;
  return Object.fromEntries(names.map((n) => [n, { service: n }])) as unknown as Omit<Kernel, 'container'>;
}

describe('the console container', () => {
  it('is the one owner of the host services: the kernel reads them from the root container', () => {
    const given = services();
    const kernel = createRootContainer(given);
    expect(kernel.http).toBe(given.http);
    expect(kernel.container.get(Core.Http)).toBe(kernel.http);
    // Nothing was copied out: a rebinding in the root is what the kernel (and a destructuring view) sees next.
    const replaced = { service: 'http-2' };
    kernel.container.unbind(Core.Http);
    kernel.container.bind(Core.Http).toConstantValue(replaced);
    const { http } = kernel;
    expect(http).toBe(replaced);
  });

  it("gives each plugin a child container whose SDK tokens resolve to the root's services, and its own id", () => {
    const kernel = createRootContainer(services());
    const a = createPluginContainer(kernel, 'a', () => undefined);
    const b = createPluginContainer(kernel, 'b', () => undefined, ['b', 'shared']);
    const pa = platformServices(a);
    const pb = platformServices(b);
    expect(pa.api).toBe(kernel.http);
    expect(pb.api).toBe(kernel.http);
    expect(pa.session).toBe(kernel.session);
    expect(pa.permissions).toBe(kernel.permissions);
    expect(pa.bus).toBe(kernel.bus);
    expect(pa.notify).toBe(kernel.notifier);
    expect(pa.i18n).toBe(kernel.i18n);
    expect([pa.pluginId, pb.pluginId]).toEqual(['a', 'b']);
    expect(pb.namespaces).toEqual(['b', 'shared']);
    // A plugin's tokens stay in its own container: the root knows none of them.
    expect(kernel.container.isBound(Tokens.PluginId)).toBe(false);
  });
});
