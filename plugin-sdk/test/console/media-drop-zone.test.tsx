// @vitest-environment happy-dom
import i18next from 'i18next';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MediaDropZone, preloadUiKit } from '../../src/console/index.js';
// Loaded with the file, not inside the hook: on a busy machine compiling the kit takes longer than a hook may.
import '../../src/console/ui/kit.js';

// The media-job kit's drop zone (video and trans-video upload forms): what it hands over and shows.

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: {}, interpolation: { escapeValue: false } });
  await preloadUiKit();
});

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
});

async function render(element: React.ReactElement) {
  const host = document.createElement('div');
  document.body.appendChild(host);
  root = createRoot(host);
  await act(async () => root!.render(element));
}

const q = (id: string) => document.querySelector(`[data-testid="${id}"]`) as HTMLElement | null;

async function choose(files: File[]) {
  const input = q('x-input') as HTMLInputElement;
  Object.defineProperty(input, 'files', { value: files, configurable: true });
  await act(async () => input.dispatchEvent(new Event('change', { bubbles: true })));
}

describe('MediaDropZone', () => {
  const a = new File(['a'], 'a.wav');
  const b = new File(['bb'], 'b.mp4');

  it('hands over every chosen file when it takes several, and the first one otherwise', async () => {
    const onFiles = vi.fn();
    await render(<MediaDropZone testId="x" multiple accept="audio/*" files={[]} onFiles={onFiles} prompt="Drop" limits="10 MB" />);
    expect((q('x-input') as HTMLInputElement).multiple).toBe(true);
    await choose([a, b]);
    expect(onFiles).toHaveBeenLastCalledWith([a, b]);
    act(() => root!.unmount());
    const one = vi.fn();
    await render(<MediaDropZone testId="x" accept="audio/*" files={[]} onFiles={one} prompt="Drop" limits="10 MB" />);
    await choose([a, b]);
    expect(one).toHaveBeenLastCalledWith([a]);
  });

  it('shows the prompt and limits, then the chosen files with their sizes', async () => {
    await render(<MediaDropZone testId="x" accept="audio/*" files={[]} onFiles={() => undefined} prompt="Drop here" limits="At most 10 MB" />);
    expect(q('x-drop')!.textContent).toContain('Drop here');
    expect(q('x-drop')!.textContent).toContain('At most 10 MB');
    expect(q('x-chosen')).toBeNull();
    act(() => root!.unmount());
    await render(<MediaDropZone testId="x" accept="audio/*" files={[a, b]} onFiles={() => undefined} prompt="Drop here" limits="" />);
    expect(q('x-chosen')!.textContent).toMatch(/^a\.wav \(.+\), b\.mp4 \(.+\)$/);
  });
});
