// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MediaDropZone } from '../../src/console/index.js';
import { prepareConsoleTests, renderView, unmountViews } from '../../src/testing/console.js';

// The media-job kit's drop zone (video and trans-video upload forms): what it hands over and shows.

beforeAll(() => prepareConsoleTests());

afterEach(unmountViews);

async function render(element: React.ReactElement) {
  await renderView(element);
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
    unmountViews();
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
    unmountViews();
    await render(<MediaDropZone testId="x" accept="audio/*" files={[a, b]} onFiles={() => undefined} prompt="Drop here" limits="" />);
    expect(q('x-chosen')!.textContent).toMatch(/^a\.wav \(.+\), b\.mp4 \(.+\)$/);
  });
});
