import 'systemjs/dist/system.js';
import * as React from 'react';
import * as ReactDOM from 'react-dom';
import * as ReactDOMClient from 'react-dom/client';
import * as JsxRuntime from 'react/jsx-runtime';
import * as ReactRouterDom from 'react-router-dom';
import * as I18next from 'i18next';
import * as ReactI18next from 'react-i18next';
import * as Axios from 'axios';
import * as SdkConsole from '@linguaport/sdk/console';
import type { SystemLoader, SystemRegister } from './system.js';

/**
 * The modules the host provides once to every plugin bundle (core/console/shared-modules.json).
 * Small ones the login page needs anyway are registered at once; heavy ones (the whole Blueprint
 * namespaces, rxjs, inversify, the SDK's shared part with zod) are split chunks the host loads on
 * the first plugin that imports them, so they stay off the login path.
 */
const eager: Record<string, object> = {
  react: React,
  'react-dom': ReactDOM,
  'react-dom/client': ReactDOMClient,
  'react/jsx-runtime': JsxRuntime,
  'react-router-dom': ReactRouterDom,
  i18next: I18next,
  'react-i18next': ReactI18next,
  axios: Axios,
  '@linguaport/sdk/console': SdkConsole,
};

const lazy: Record<string, () => Promise<object>> = {
  '@blueprintjs/core': () => import('@blueprintjs/core'),
  '@blueprintjs/select': () => import('@blueprintjs/select'),
  // The grid under the SDK's DataGrid, for a plugin that builds its own (the CAT editor); its CSS is in main.tsx.
  '@blueprintjs/table': () => import('@blueprintjs/table'),
  rxjs: () => import('rxjs'),
  inversify: () => import('inversify'),
  '@linguaport/sdk/shared': () => import('@linguaport/sdk/shared'),
  // Plugins whose console types come from their zod schemas (shared/schemas.ts) import it at run time:
  // one copy from the host (the same chunk the SDK's shared part uses), not ~90 KB inside each bundle.
  zod: () => import('zod'),
};

export const SHARED_MODULE_NAMES: readonly string[] = [...Object.keys(eager), ...Object.keys(lazy)];

const PREFIX = 'app:';

/**
 * Shape a host module namespace for System.register importers: named exports stay as they are and
 * `default` is the module's default export, or the whole namespace when it has none, so both
 * `import React from 'react'` and `import { useState } from 'react'` work.
 */
export function toSystemNamespace(ns: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(ns)) out[key] = (ns as Record<string, unknown>)[key];
  if (!('default' in out) || out.default === undefined) out.default = ns;
  return out;
}

let registered = false;

/** Register every shared module with SystemJS; safe to call twice. */
export function registerSharedModules(system: SystemLoader = globalThis.System): void {
  if (registered) return;
  registered = true;
  const imports: Record<string, string> = {};
  for (const [name, ns] of Object.entries(eager)) {
    system.set(PREFIX + name, toSystemNamespace(ns));
    imports[name] = PREFIX + name;
  }
  for (const name of Object.keys(lazy)) imports[name] = PREFIX + name;
  system.addImportMap({ imports });

  // Lazy modules: SystemJS asks `instantiate` for `app:<name>` the first time a bundle imports
  // it; answer with a register that exports the host's own split chunk.
  const instantiate = system.instantiate.bind(system);
  system.instantiate = (url, parentUrl, meta) => {
    const load = url.startsWith(PREFIX) ? lazy[url.slice(PREFIX.length)] : undefined;
    if (!load) return instantiate(url, parentUrl, meta);
    return load().then((ns): SystemRegister => [
      [],
      (exportFn) => ({ execute: () => { exportFn(toSystemNamespace(ns)); } }),
    ]);
  };
  // The object a plugin's `import React from 'react'` receives; the e2e test compares it.
  (globalThis as { __LP_REACT__?: unknown }).__LP_REACT__ = toSystemNamespace(React).default;
}
