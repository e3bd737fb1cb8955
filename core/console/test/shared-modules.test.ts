// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import * as React from 'react';
import { registerSharedModules, SHARED_MODULE_NAMES, toSystemNamespace } from '../src/plugins/shared-modules.js';

import sharedModules from '../shared-modules.json';

const listed: string[] = sharedModules.modules;

describe('shared modules', () => {
  it('registers exactly the modules listed in shared-modules.json', () => {
    expect([...SHARED_MODULE_NAMES].sort()).toEqual([...listed].sort());
  });

  it('gives a namespace without a default export itself as default', () => {
    const ns = toSystemNamespace({ a: 1 });
    expect(ns.a).toBe(1);
    expect((ns.default as { a: number }).a).toBe(1);
  });

  it('serves default and named imports of react to a System.register module, and lazy modules on demand', async () => {
    registerSharedModules();
    const system = globalThis.System;
    const url = 'http://localhost/test-shared.js';
    // A real System.register module as the build emits it, evaluated by SystemJS from a registered source.
    system.shouldFetch = (u: string) => u === url;
    system.fetch = async () =>
      new Response(
        `System.register(['react', 'rxjs', '@blueprintjs/core'], function (_export) {
          var React, useState, Subject, Button;
          return {
            setters: [function (m) { React = m.default; useState = m.useState; }, function (m) { Subject = m.Subject; }, function (m) { Button = m.Button; }],
            execute: function () { _export({ React: React, useState: useState, Subject: Subject, Button: Button }); }
          };
        });`,
        { headers: { 'content-type': 'application/javascript' } },
      );
    const ns = await system.import(url);
    expect(ns.React).toBe(toSystemNamespace(React).default);
    expect((ns.React as typeof React).useState).toBe(React.useState);
    expect(ns.useState).toBe(React.useState);
    expect(typeof ns.Subject).toBe('function');
    expect(ns.Button).toBeDefined();
    expect((globalThis as { __LP_REACT__?: unknown }).__LP_REACT__).toBe(ns.React);
  });
});
