// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { revealScroll, TagsView } from '../src/shell/TagsView.js';
import type { VisitedView } from '../src/shell/tags.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = (path: string): VisitedView => ({ path, title: path, fullPath: path, query: {}, meta: { affix: path === '/home' } });
const TAB = 100; // each tab is drawn 100 px wide, one after another
const STRIP = 300; // the strip shows 300 px

// happy-dom does no layout: give the strip and its tabs a fixed geometry.
const proto = HTMLElement.prototype;
const saved = {
  clientWidth: Object.getOwnPropertyDescriptor(proto, 'clientWidth'),
  scrollWidth: Object.getOwnPropertyDescriptor(proto, 'scrollWidth'),
  rect: proto.getBoundingClientRect,
};
function fakeLayout() {
  Object.defineProperty(proto, 'clientWidth', { configurable: true, get(this: HTMLElement) { return this.dataset.testid === 'tags-strip' ? STRIP : 0; } });
  Object.defineProperty(proto, 'scrollWidth', { configurable: true, get(this: HTMLElement) { return this.dataset.testid === 'tags-strip' ? this.querySelectorAll('[data-testid="tag"]').length * TAB : 0; } });
  proto.getBoundingClientRect = function (this: HTMLElement) {
    if (this.dataset.testid === 'tag') {
      const strip = this.closest<HTMLElement>('[data-testid="tags-strip"]')!;
      const i = Array.from(strip.querySelectorAll('[data-testid="tag"]')).indexOf(this);
      const left = i * TAB - strip.scrollLeft;
      return { left, right: left + TAB, width: TAB, top: 0, bottom: 26, height: 26, x: left, y: 0, toJSON() {} } as DOMRect;
    }
    return { left: 0, right: STRIP, width: STRIP, top: 0, bottom: 26, height: 26, x: 0, y: 0, toJSON() {} } as DOMRect;
  };
}

let root: Root | null = null;
afterEach(() => {
  root?.unmount();
  root = null;
  document.body.innerHTML = '';
  for (const k of ['clientWidth', 'scrollWidth'] as const) {
    if (saved[k]) Object.defineProperty(proto, k, saved[k]!);
    else delete (proto as unknown as Record<string, unknown>)[k];
  }
  proto.getBoundingClientRect = saved.rect;
});

async function draw(views: VisitedView[], activePath: string) {
  const host = document.body.querySelector('#host') ?? Object.assign(document.createElement('div'), { id: 'host' });
  document.body.append(host);
  root ??= createRoot(host);
  const noop = () => {};
  await act(async () => root!.render(
    <MemoryRouter>
      <TagsView views={views} activePath={activePath} onClose={noop} onRefresh={noop} onCloseOthers={noop} onCloseAll={noop} />
    </MemoryRouter>,
  ));
  return document.querySelector<HTMLElement>('[data-testid="tags-strip"]')!;
}

const fifteen = ['/home', ...Array.from({ length: 14 }, (_, i) => `/page${i + 1}`)].map(view);

describe('tags view scrolling', () => {
  it('reveals a tab with the least scroll, clamped to the strip', () => {
    expect(revealScroll(0, 300, 1500, 100, 100)).toBe(0); // already in view
    expect(revealScroll(0, 300, 1500, 1400, 100)).toBe(1200); // the last tab: scrolled to the end
    expect(revealScroll(0, 300, 1500, 600, 100)).toBe(424); // right edge plus a margin
    expect(revealScroll(900, 300, 1500, 200, 100)).toBe(176); // left edge minus a margin
    expect(revealScroll(900, 300, 1500, 0, 100)).toBe(0);
  });

  it('scrolls the active tab into view and shows the overflow arrows when the tabs do not fit', async () => {
    fakeLayout();
    const strip = await draw(fifteen, '/page14');
    expect(strip.scrollLeft).toBe(1200);
    const left = document.querySelector<HTMLButtonElement>('[data-testid="tags-scroll-left"]')!;
    const right = document.querySelector<HTMLButtonElement>('[data-testid="tags-scroll-right"]')!;
    expect(left).toBeTruthy();
    expect(left.disabled).toBe(false);
    expect(right.disabled).toBe(true);

    await draw(fifteen, '/page2'); // switching back to an early tab scrolls back to it
    expect(strip.scrollLeft).toBe(176);
    await act(async () => left.click());
    expect(strip.scrollLeft).toBe(0);
    expect(document.querySelector<HTMLButtonElement>('[data-testid="tags-scroll-left"]')!.disabled).toBe(true);
    await act(async () => document.querySelector<HTMLButtonElement>('[data-testid="tags-scroll-right"]')!.click());
    expect(strip.scrollLeft).toBe(240);
  });

  it('shows no arrows when every tab fits', async () => {
    fakeLayout();
    await draw(fifteen.slice(0, 3), '/page2');
    expect(document.querySelector('[data-testid="tags-scroll-left"]')).toBeNull();
    expect(document.querySelector('[data-testid="tags-scroll-right"]')).toBeNull();
  });
});
