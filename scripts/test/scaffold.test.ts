import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM build code without type declarations
import { pluginNames, validatePluginId } from '../lib/scaffold.mjs';

describe('scaffold names', () => {
  it('derives the route, view and table names from a dashed id', () => {
    expect(pluginNames('demo-x2')).toEqual({ __ID__: 'demo-x2', __CAMEL__: 'demoX2', __PASCAL__: 'DemoX2', __TABLE__: 'demo_x2_items' });
  });

  it('accepts manifest-valid ids and refuses the others with one line', () => {
    expect(validatePluginId('glossary')).toBeNull();
    expect(validatePluginId('Glossary')).toMatch(/^invalid plugin id "Glossary"/);
    expect(validatePluginId('g')).toMatch(/invalid plugin id/);
    expect(validatePluginId('9lives')).toMatch(/invalid plugin id/);
    expect(validatePluginId('term--base')).toMatch(/doubled or trailing dashes/);
    expect(validatePluginId('term-')).toMatch(/doubled or trailing dashes/);
  });
});
