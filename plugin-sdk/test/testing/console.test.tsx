// @vitest-environment happy-dom
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { useTranslation } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { usePlatform } from '../../src/console/index.js';
import { prepareConsoleTests, renderView, unmountViews } from '../../src/testing/console.js';

// The console test set-up lives once in the testing kit (issue 24): a view rendered with faked
// services and the area's messages, and the page emptied after each test.
beforeAll(() => prepareConsoleTests({ 'en-US': { demo: { hello: 'Hello' } }, 'zh-CN': { demo: { hello: '你好' } } }));
afterEach(unmountViews);

function Greeting() {
  const { t } = useTranslation('demo');
  return <p data-testid="greeting">{`${t('hello')} ${usePlatform().pluginId}`}</p>;
}

describe('testing kit: console views', () => {
  it('renders a view with the services given and the messages of the current language, and unmounts it', async () => {
    const host = await renderView(<Greeting />, { pluginId: 'demo' });
    expect(host.isConnected).toBe(true);
    expect(document.querySelector('[data-testid="greeting"]')?.textContent).toBe('Hello demo');
    unmountViews();
    expect(document.body.innerHTML).toBe('');
    const { default: i18next } = await import('i18next');
    await i18next.changeLanguage('zh-CN');
    await renderView(<Greeting />, { pluginId: 'demo' });
    expect(document.querySelector('[data-testid="greeting"]')?.textContent).toBe('你好 demo');
  });

  it("no plugin console test (nor the scaffold's) sets up React and i18next by hand", () => {
    const root = resolve(import.meta.dirname, '../../..');
    const files = [join('scripts/templates/plugin/test/console/__ID__.test.tsx')];
    for (const area of readdirSync(join(root, 'plugins'))) {
      const dir = join('plugins', area, 'test/console');
      try {
        files.push(...readdirSync(join(root, dir)).filter((f) => f.endsWith('.tsx')).map((f) => join(dir, f)));
      } catch {
        // An area without console tests.
      }
    }
    const own = files.filter((f) => /IS_REACT_ACT_ENVIRONMENT|initReactI18next|from 'react-dom\/client'/.test(readFileSync(join(root, f), 'utf8')));
    expect(own).toEqual([]);
  });
});
