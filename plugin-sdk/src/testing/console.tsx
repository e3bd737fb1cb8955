// `@linguaport/sdk/testing/console`: a console view rendered in a test (happy-dom) with the platform's
// services faked. Kept apart from `@linguaport/sdk/testing` so that server tests do not load React.
import i18next from 'i18next';
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { initReactI18next } from 'react-i18next';
import { PlatformContext, preloadUiKit, type PlatformServices } from '../console/index.js';
// Loaded with the test file, not inside a hook: on a busy machine compiling the kit takes longer than a hook may.
import '../console/ui/kit.js';

/** An area's locale files as they are read (`{ <namespace>: { key: text } }`). */
export interface ConsoleLocales {
  'en-US': Record<string, unknown>;
  'zh-CN': Record<string, unknown>;
}

/**
 * Once per test file (beforeAll): React's act environment, i18next with the area's messages in both
 * languages (`lng` first; none for the kit's own views, which bring theirs), and the UI kit loaded so
 * that its views render at once.
 */
export async function prepareConsoleTests(locales?: ConsoleLocales, lng: keyof ConsoleLocales = 'en-US'): Promise<void> {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  await i18next.use(initReactI18next).init({ lng, resources: (locales ?? {}) as never, interpolation: { escapeValue: false } });
  await preloadUiKit();
}

const roots: Root[] = [];

/**
 * Renders `element` into a new element of the page, inside the platform's context when `services` are
 * given (only what the view uses: `{ api, notify, … }`), and returns that element.
 */
export async function renderView(element: ReactNode, services?: Partial<PlatformServices>): Promise<HTMLElement> {
  const host = document.createElement('div');
  document.body.appendChild(host);
  const root = createRoot(host);
  roots.push(root);
  const tree = services ? <PlatformContext.Provider value={services as PlatformServices}>{element}</PlatformContext.Provider> : element;
  await act(async () => root.render(tree));
  return host;
}

/** After each test (afterEach), or between two renders of one test: every view unmounted, the page empty. */
export function unmountViews(): void {
  act(() => {
    for (const root of roots.splice(0)) root.unmount();
  });
  document.body.innerHTML = '';
}

/** Lets the answers a view asked for on mounting land (one turn of the event loop, inside act). */
export async function settle(): Promise<void> {
  await act(async () => void (await new Promise((r) => setTimeout(r, 0))));
}
