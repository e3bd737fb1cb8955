import { createContext, useContext, useEffect, type ComponentType } from 'react';
import { useTranslation as useI18nTranslation } from 'react-i18next';
import type { Observable } from 'rxjs';
import type { i18n as I18n } from 'i18next';
import type { SlotService, SlotViewProps } from './slots.js';

/**
 * The console half of the SDK. A plugin bundle default-exports `definePlugin({...})`. The host
 * gives each plugin a child container holding only the services below and provides them to the
 * plugin's views through `PlatformContext`; views reach them through the hooks.
 */

export { Codes, type Envelope } from '../shared/envelope.js';

export interface ViewProps {
  /** The route path the view was mounted for. */
  path: string;
  query: Record<string, string>;
}

export interface ConsolePlugin {
  id: string;
  /** One component per `view` named in the manifest's routes and `views` (slot contributions get SlotViewProps). */
  views: Record<string, ComponentType<ViewProps> | ComponentType<SlotViewProps<any>>>;
}

export function definePlugin(plugin: ConsolePlugin): ConsolePlugin {
  return plugin;
}

/** Rejected calls carry the envelope code, message and HTTP status. */
export interface ApiErrorInfo {
  code: number;
  msg: string;
  status: number;
}

export interface RequestOptions {
  params?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Handle the error yourself: no toast. */
  silent?: boolean;
  onUploadProgress?: (fraction: number) => void;
  responseType?: 'json' | 'blob';
}

/** The shared HTTP client (spec 01 section 8): resolves with `data`, rejects with ApiErrorInfo. */
export interface ApiClient {
  get<T = unknown>(url: string, options?: RequestOptions): Promise<T>;
  post<T = unknown>(url: string, body?: unknown, options?: RequestOptions): Promise<T>;
  put<T = unknown>(url: string, body?: unknown, options?: RequestOptions): Promise<T>;
  delete<T = unknown>(url: string, options?: RequestOptions): Promise<T>;
  options<T = unknown>(url: string, options?: RequestOptions): Promise<T>;
}

export interface SessionUser {
  id: number;
  username: string;
  realName: string;
  userType: number;
  apiKey: string | null;
}

export interface SessionState {
  user: SessionUser | null;
  departmentId: number | null;
  departmentName: string | null;
  roleNames: string[];
}

export interface SessionService {
  current(): SessionState;
  changes(): Observable<SessionState>;
}

export interface PermissionService {
  /** A button permission is granted if any stored button entry has this key. */
  hasButton(key: string): boolean;
  /** A route permission is granted if any menu entry or child has this path. */
  hasRoute(path: string): boolean;
  /** Granted only if the entry matches and its configValue equals 1. */
  hasSystemConfig(configKey: string): boolean;
  changes(): Observable<void>;
}

export interface BusEvent<T = unknown> {
  type: string;
  payload: T;
}

export interface ConsoleBus {
  events<T = unknown>(type?: string): Observable<BusEvent<T>>;
  emit<T>(event: BusEvent<T>): void;
}

export interface Notifier {
  success(message: string): void;
  warning(message: string): void;
  info(message: string): void;
  error(message: string): void;
}

export interface PlatformServices {
  pluginId: string;
  /** The plugin's i18n namespaces from its manifest; the first is its default. */
  namespaces: string[];
  api: ApiClient;
  session: SessionService;
  permissions: PermissionService;
  bus: ConsoleBus;
  notify: Notifier;
  i18n: I18n;
  navigate(path: string): void;
  /** The console slots (use `<Slot>` and `useSlot`). */
  slots: SlotService;
  /**
   * The address of a plugin's own WebSocket (`ctx.socket` on the server) for the signed-in session:
   * `ws(s)://<host>/api<path>?token=...` with `query` added; null when signed out.
   */
  socketUrl(path: string, query?: Record<string, string>): string | null;
}

/** Injection tokens of the services a plugin's child container holds. */
export const Tokens = {
  Api: Symbol.for('linguaport.api'),
  Session: Symbol.for('linguaport.session'),
  Permissions: Symbol.for('linguaport.permissions'),
  Bus: Symbol.for('linguaport.bus'),
  Notify: Symbol.for('linguaport.notify'),
  I18n: Symbol.for('linguaport.i18n'),
  Navigate: Symbol.for('linguaport.navigate'),
  PluginId: Symbol.for('linguaport.pluginId'),
  Namespaces: Symbol.for('linguaport.namespaces'),
  Slots: Symbol.for('linguaport.slots'),
  SocketUrl: Symbol.for('linguaport.socketUrl'),
} as const;

export const PlatformContext = createContext<PlatformServices | null>(null);

export function usePlatform(): PlatformServices {
  const services = useContext(PlatformContext);
  if (!services) throw new Error('usePlatform must be used inside a plugin view mounted by the console');
  return services;
}

export function useApi(): ApiClient {
  return usePlatform().api;
}

export function useSession(): SessionService {
  return usePlatform().session;
}

export function usePermission(): PermissionService {
  return usePlatform().permissions;
}

export function useNotify(): Notifier {
  return usePlatform().notify;
}

/** Subscribe to bus events of one type for the life of the component. */
export function useBus<T = unknown>(type: string, handler: (event: BusEvent<T>) => void): void {
  const { bus } = usePlatform();
  useEffect(() => {
    const sub = bus.events<T>(type).subscribe(handler);
    return () => sub.unsubscribe();
  }, [bus, type, handler]);
}

/** `useTranslation` bound to the plugin's default namespace (the first in its manifest's `i18n`). */
export function useTranslation(ns?: string | string[]) {
  const services = useContext(PlatformContext);
  return useI18nTranslation(ns ?? services?.namespaces[0] ?? services?.pluginId);
}

// The shared language select (plugin language-sorting serves its list).
export { LanguageSelect, useLanguages, useLanguageOptions, languageName, type Language, type LanguageSelectProps, type LanguagesState } from './ui/LanguageSelect.js';

// The shared UI kit (paged table, search bar, form and confirm dialogs, upload, status tag, empty state).
export * from './ui/index.js';

// The refreshBefore rule for drawers and dialogs (spec 01 section 4).
export { useRefreshBefore, setRefreshBefore, REFRESH_BEFORE_KEY, type RefreshBefore } from './refresh-before.js';
export { useTask, taskFraction, TASK_CHANGED, type TaskView, type TaskHookState } from './tasks.js';
export { Slot, useSlot, type SlotProps, type SlotViewProps, type SlotContribution, type SlotService } from './slots.js';
export { saveBlob, downloadFile } from './download.js';
// Per-user remembered choices: the last language pair per area, a screen's library in the address.
export { useLastLanguagePair, useQueryParam, readLanguagePair, writeLanguagePair, type LanguagePair } from './remembered.js';
