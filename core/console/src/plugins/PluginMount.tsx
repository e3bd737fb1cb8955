import { Component, Suspense, useEffect, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { PlatformContext, type ViewProps } from '@linguaport/sdk/console';
import { useKernel } from '../container.js';
import { toPluginError, type PluginLoadError } from './errors.js';
import type { LoadedPlugin } from './loader.js';
import { PluginErrorPanel } from './PluginErrorPanel.js';
import { createPluginContainer, platformServices } from './services.js';
import { ProgressBar } from '../router/ProgressBar.js';

interface MountProps {
  pluginId: string;
  view: string;
  path: string;
}

interface BoundaryProps {
  pluginId: string;
  version?: string;
  onRetry(): void;
  /** Tell the server (POST /api/plugins/reportFailure) so administrators see failing plugins. */
  report(failure: PluginFailureReport): void;
  children: ReactNode;
}

export interface PluginFailureReport {
  pluginId: string;
  version: string;
  kind: string;
  message: string;
}

/** Catches a load rejection or a render error of one plugin; the rest of the console goes on. */
export class PluginBoundary extends Component<BoundaryProps, { error: PluginLoadError | null }> {
  override state = { error: null as PluginLoadError | null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error as PluginLoadError };
  }

  override componentDidCatch(error: unknown) {
    console.error(`[plugins] ${this.props.pluginId} failed`, error);
    const e = toPluginError(error, this.props.pluginId);
    this.props.report({ pluginId: this.props.pluginId, version: this.props.version ?? '', kind: e.kind, message: e.message.slice(0, 2000) });
  }

  override render() {
    if (this.state.error) {
      const error = toPluginError(this.state.error, this.props.pluginId);
      return (
        <PluginErrorPanel
          error={error}
          version={this.props.version}
          onRetry={this.props.onRetry}
        />
      );
    }
    return this.props.children;
  }
}

/**
 * Waits for the plugin's bundle with state, not Suspense: a Suspense boundary that showed its fallback
 * holds the revealed content back (React throttles the reveal by about 300 ms), which was most of a
 * first visit's cost. A plugin loaded before renders at once. The view itself sits in its own
 * Suspense boundary (LoadedView), so a plugin that suspends (React.lazy, `use`) waits in its room.
 */
function PluginView({ pluginId, attempt, view, path }: { pluginId: string; attempt: number; view: string; path: string }) {
  const loaded = useLoadedPlugin(pluginId, attempt);
  if (!loaded) return <ProgressBar active />;
  return <LoadedView loaded={loaded} view={view} path={path} />;
}

/** The plugin once loaded (undefined while loading); a failed load is thrown to the nearest PluginBoundary. */
export function useLoadedPlugin(pluginId: string, attempt: number): LoadedPlugin | undefined {
  const { loader } = useKernel();
  const [result, setResult] = useState<{ loaded?: LoadedPlugin; error?: unknown }>(() => ({ loaded: loader.loaded(pluginId) }));
  useEffect(() => {
    if (result.loaded?.manifest.id === pluginId) return;
    let live = true;
    loader.load(pluginId).then(
      (loaded) => live && setResult({ loaded }),
      (error) => live && setResult({ error }),
    );
    return () => {
      live = false;
    };
  }, [loader, pluginId, attempt]); // eslint-disable-line react-hooks/exhaustive-deps
  if (result.error) throw result.error; // to the plugin's error boundary
  return result.loaded?.manifest.id === pluginId ? result.loaded : undefined;
}

/** The SDK services of one loaded plugin (its own child container), as its views see them. */
export function usePluginServices(loaded: LoadedPlugin) {
  const kernel = useKernel();
  const navigate = useNavigate();
  return useMemo(
    () => platformServices(createPluginContainer(kernel, loaded.manifest.id, (p) => void navigate(p), loaded.manifest.i18n)),
    [kernel, loaded, navigate],
  );
}

function LoadedView({ loaded, view, path }: { loaded: LoadedPlugin; view: string; path: string }) {
  const [search] = useSearchParams();
  const services = usePluginServices(loaded);
  const View = loaded.module.views[view] as ComponentType<ViewProps>;
  return (
    <PlatformContext.Provider value={services}>
      <Suspense fallback={<ProgressBar active />}>
        <View path={path} query={Object.fromEntries(search)} />
      </Suspense>
    </PlatformContext.Provider>
  );
}

/** Mounts one plugin view: loads the plugin on first use, isolated by its own error boundary and Suspense. */
export function PluginMount({ pluginId, view, path }: MountProps) {
  const { loader, registry, http } = useKernel();
  // The loader caches one promise per plugin; `attempt` asks again after a failed load.
  const [attempt, setAttempt] = useState(0);
  const version = registry.get().plugins[pluginId]?.version;
  return (
    <PluginBoundary key={`${path}:${attempt}`} pluginId={pluginId} version={version} onRetry={() => { loader.forget(pluginId); setAttempt((n) => n + 1); }} report={(r) => reportFailure(http, r)}>
      <PluginView pluginId={pluginId} attempt={attempt} view={view} path={path} />
    </PluginBoundary>
  );
}

/** Best effort: a server without the call (404) or any other failure is ignored silently. */
export function reportFailure(http: { post(url: string, body?: unknown, options?: { silent?: boolean }): Promise<unknown> }, report: PluginFailureReport): void {
  http.post('/plugins/reportFailure', report, { silent: true }).catch(() => {});
}
