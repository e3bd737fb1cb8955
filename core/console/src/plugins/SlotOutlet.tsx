import { Suspense, useState, type ComponentType } from 'react';
import { PlatformContext, type SlotContribution, type SlotProps, type SlotService, type SlotViewProps } from '@linguaport/sdk/console';
import type { RegistrySlot } from '@linguaport/sdk/shared';
import { useKernel, type Kernel } from '../container.js';
import { useAccessVersion } from '../router/useAccessVersion.js';
import { PluginLoadError } from './errors.js';
import { PluginBoundary, reportFailure, useLoadedPlugin, usePluginServices } from './PluginMount.js';

/**
 * The contributions to a slot this user may see: the server sends those of the plugins the user
 * reaches; a contribution behind a button permission also needs that button here (the same check
 * buttons get, so a live permission change hides it before the registry is fetched again).
 */
export function visibleContributions(kernel: Pick<Kernel, 'registry' | 'permissions'>, name: string): RegistrySlot[] {
  return kernel.registry.slot(name).filter((c) => !c.permission || kernel.permissions.hasButton(c.permission));
}

export function slotService(kernel: Pick<Kernel, 'registry' | 'permissions'>): SlotService {
  return {
    contributions: (name: string): SlotContribution[] => visibleContributions(kernel, name).map(({ plugin, view, order }) => ({ plugin, view, order })),
    Outlet: SlotOutlet,
  };
}

/**
 * Renders a slot: each contribution loads its plugin through the bundle loader (integrity checked,
 * as routes do) and renders in its own error boundary and Suspense, with its own plugin's services.
 */
export function SlotOutlet({ name, props, empty }: SlotProps<Record<string, unknown>>) {
  const kernel = useKernel();
  useAccessVersion(); // re-read after sign-in, a department switch or a live permission change
  const list = visibleContributions(kernel, name);
  if (list.length === 0) return <>{empty ?? null}</>;
  return (
    <>
      {list.map((c) => (
        <SlotItem key={`${c.plugin}:${c.view}`} slot={name} contribution={c} props={props ?? {}} />
      ))}
    </>
  );
}

function SlotItem({ slot, contribution, props }: { slot: string; contribution: RegistrySlot; props: Record<string, unknown> }) {
  const { registry, loader, http } = useKernel();
  const [attempt, setAttempt] = useState(0);
  const { plugin, view } = contribution;
  return (
    <div className="lp-slot-item" data-slot={slot} data-slot-item={`${plugin}/${view}`}>
      <PluginBoundary
        key={attempt}
        pluginId={plugin}
        version={registry.get().plugins[plugin]?.version}
        onRetry={() => { loader.forget(plugin); setAttempt((n) => n + 1); }}
        report={(r) => reportFailure(http, r)}
      >
        <SlotView plugin={plugin} view={view} attempt={attempt} slot={slot} props={props} />
      </PluginBoundary>
    </div>
  );
}

function SlotView({ plugin, view, attempt, slot, props }: { plugin: string; view: string; attempt: number; slot: string; props: Record<string, unknown> }) {
  const loaded = useLoadedPlugin(plugin, attempt);
  if (!loaded) return null;
  return <LoadedSlotView loaded={loaded} view={view} slot={slot} props={props} />;
}

function LoadedSlotView({ loaded, view, slot, props }: { loaded: NonNullable<ReturnType<typeof useLoadedPlugin>>; view: string; slot: string; props: Record<string, unknown> }) {
  const services = usePluginServices(loaded);
  const View = loaded.module.views[view] as ComponentType<SlotViewProps> | undefined;
  if (typeof View !== 'function' && (typeof View !== 'object' || View === null)) {
    throw new PluginLoadError('invalid-module', loaded.manifest.id, `${loaded.manifest.id} has no view ${view} for slot ${slot}`);
  }
  return (
    <PlatformContext.Provider value={services}>
      <Suspense fallback={null}>
        <View slot={slot} props={props} />
      </Suspense>
    </PlatformContext.Provider>
  );
}
