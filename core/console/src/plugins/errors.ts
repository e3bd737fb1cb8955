/**
 * Why a plugin could not be shown. Each kind maps to one message in the `core` namespace
 * (`plugin.kind.<kind>`) and is written to the error panel's `data-error-kind`.
 */
export type PluginErrorKind =
  | 'network'
  | 'http'
  | 'integrity'
  | 'evaluation'
  | 'invalid-module'
  | 'sdk-incompatible'
  | 'timeout'
  | 'unregistered'
  | 'render';

export interface PluginErrorDetails {
  /** HTTP status for `http`. */
  status?: number;
  /** The plugin's SDK range for `sdk-incompatible`. */
  range?: string;
  /** The console's SDK version for `sdk-incompatible`. */
  sdk?: string;
  /** The time-out in seconds for `timeout`. */
  seconds?: number;
}

export class PluginLoadError extends Error {
  override readonly name = 'PluginLoadError';
  constructor(
    readonly kind: PluginErrorKind,
    readonly pluginId: string,
    message: string,
    readonly details: PluginErrorDetails = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Any error thrown while loading or rendering a plugin becomes a PluginLoadError; render errors keep their cause. */
export function toPluginError(error: unknown, pluginId: string): PluginLoadError {
  if (error instanceof PluginLoadError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new PluginLoadError('render', pluginId, message, {}, { cause: error });
}
