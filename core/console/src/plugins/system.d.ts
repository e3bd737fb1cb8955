/** The part of the SystemJS loader (systemjs/dist/system.js) the host uses. */
export type SystemRegister = [string[], (exportFn: (names: Record<string, unknown>) => void, context: unknown) => { setters?: unknown[]; execute?: () => unknown }];

export interface SystemLoader {
  import(id: string, parentUrl?: string): Promise<Record<string, unknown>>;
  set(id: string, ns: Record<string, unknown>): unknown;
  has(id: string): boolean;
  delete(id: string): unknown;
  addImportMap(map: { imports?: Record<string, string>; scopes?: Record<string, Record<string, string>> }): void;
  resolve(id: string, parentUrl?: string): string;
  instantiate(url: string, parentUrl?: string, meta?: unknown): Promise<SystemRegister> | SystemRegister;
  shouldFetch(url: string, parentUrl?: string, meta?: unknown): boolean;
  fetch(url: string, init?: RequestInit): Promise<Response>;
}

declare global {
  // eslint-disable-next-line no-var
  var System: SystemLoader;
  interface Window {
    __LP_REACT__?: unknown;
  }
}
