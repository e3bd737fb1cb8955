// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { MenuIcon } from '../src/shell/icons.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

async function draw(name: string | null): Promise<HTMLElement> {
  const host = document.createElement('div');
  document.body.append(host);
  const root = createRoot(host);
  await act(async () => root.render(<MenuIcon name={name} />));
  return host.firstElementChild as HTMLElement;
}

describe('sidebar menu icons', () => {
  it('draws a bundled icon by name', async () => {
    expect((await draw('translate')).outerHTML).toContain('data-icon="translate"');
  });

  it('draws any other Blueprint icon through its loader, not the fallback', async () => {
    const el = await draw('airplane');
    expect(el.className).toContain('lp-menu-icon');
    expect(el.outerHTML).toContain('airplane');
    expect(el.outerHTML).not.toContain('application');
  });

  it('falls back to application for an unknown name or none', async () => {
    expect((await draw('no-such-icon')).outerHTML).toContain('data-icon="application"');
    expect((await draw(null)).outerHTML).toContain('data-icon="application"');
  });
});
