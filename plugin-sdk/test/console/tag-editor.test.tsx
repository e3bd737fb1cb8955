// @vitest-environment happy-dom
import i18next from 'i18next';
import { act, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TagEditor, TaggedText } from '../../src/console/ui/TagEditor.js';
import { missingTags, pastedValue, serializeNodes } from '../../src/console/ui/TagEditor.js';
import { seededRandom } from '../../src/testing/index.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: {}, interpolation: { escapeValue: false } });
});

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
});

const SOURCE = 'Press <1>Print</1> to start<2/>now.';

/** The editor in a host that keeps its value, as a view does; `values` records every change. */
async function mount(initial: string, source = SOURCE) {
  const values: string[] = [];
  function Host() {
    const [value, setValue] = useState(initial);
    return <TagEditor value={value} source={source} testId="ed" onChange={(v) => { values.push(v); setValue(v); }} />;
  }
  const host = document.createElement('div');
  document.body.appendChild(host);
  root = createRoot(host);
  await act(async () => root!.render(<Host />));
  const ed = document.querySelector('[data-testid="ed"]') as HTMLDivElement;
  return { ed, values, last: () => values.at(-1) };
}

function caret(node: Node, offset: number) {
  const r = document.createRange();
  r.setStart(node, offset);
  r.collapse(true);
  const sel = document.getSelection()!;
  sel.removeAllRanges();
  sel.addRange(r);
}

const key = (ed: HTMLElement, init: KeyboardEventInit) => act(async () => { ed.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init })); });
const chips = (ed: HTMLElement) => [...ed.querySelectorAll('.lp-tag-chip')].map((c) => (c as HTMLElement).dataset.tag);

describe('TagEditor', () => {
  it('shows tags as non-editable chips and round-trips its value to the notation exactly (300 seeded values)', async () => {
    const { ed } = await mount(SOURCE);
    expect(chips(ed)).toEqual(['<1>', '</1>', '<2/>']);
    for (const c of ed.querySelectorAll('.lp-tag-chip')) expect(c.getAttribute('contenteditable')).toBe('false');
    expect(serializeNodes(ed.childNodes)).toBe(SOURCE);
    act(() => root!.unmount());
    root = null;

    // One editor whose value is set from outside 300 times (a reset, a match inserted): the nodes are rebuilt each time.
    const random = seededRandom(4422);
    const pieces = ['a', ' ', 'b c', '\n', '<1>', '</1>', '<2/>', '<12>', '</1/>', '⟨1⟩', '<x>', '&lt;', '打印', '<', '>', '/'];
    let set: (v: string) => void = () => {};
    function Outside() {
      const [value, setValue] = useState('');
      set = setValue;
      return <TagEditor value={value} onChange={() => {}} />;
    }
    const el = document.createElement('div');
    root = createRoot(el);
    await act(async () => root!.render(<Outside />));
    for (let i = 0; i < 300; i++) {
      let value = '';
      for (let n = Math.floor(random() * 12); n > 0; n--) value += pieces[Math.floor(random() * pieces.length)];
      await act(async () => set(value));
      expect(serializeNodes(el.querySelector('[role="textbox"]')!.childNodes)).toBe(value);
    }
  }, 30_000);

  it('keeps chips whole while text is typed around them, and Backspace or Delete removes a chip entirely', async () => {
    const { ed, last } = await mount(SOURCE);
    // Typing: the browser changes a text node and says so with an input event.
    const firstText = ed.childNodes[0] as Text;
    await act(async () => {
      firstText.data = 'Pulse ';
      ed.dispatchEvent(new Event('input', { bubbles: true }));
    });
    expect(last()).toBe('Pulse <1>Print</1> to start<2/>now.');
    // Caret right after the first chip (at the start of the text that follows it): Backspace takes the whole chip.
    const afterOpen = ed.childNodes[2] as Text;
    expect(afterOpen.data).toBe('Print');
    caret(afterOpen, 0);
    await key(ed, { key: 'Backspace' });
    expect(last()).toBe('Pulse Print</1> to start<2/>now.');
    expect(chips(ed)).toEqual(['</1>', '<2/>']);
    // Caret in the editor itself, between nodes: Delete takes the chip after it.
    const i = [...ed.childNodes].findIndex((n) => (n as HTMLElement).dataset?.tag === '<2/>');
    caret(ed, i);
    await key(ed, { key: 'Delete' });
    expect(last()).toBe('Pulse Print</1> to startnow.');
    // Backspace inside text is the browser's: no chip is touched.
    const before = last();
    caret(ed.childNodes[0]!, 3);
    await key(ed, { key: 'Backspace' });
    expect(last()).toBe(before);
  });

  it('inserts the next missing tag with Ctrl+, and tag N with Ctrl+Alt+N, wrapping a selection in a pair', async () => {
    const { ed, last } = await mount('Pulse Imprimir para empezar ya.');
    expect(document.querySelector('[data-testid="ed-tags"]')?.textContent).toContain('missing from the translation: 1 /1 2/');
    expect(ed.title).toContain('Ctrl+,');
    // Select "Imprimir" and press Ctrl+, : the pair wraps it.
    const text = ed.childNodes[0] as Text;
    const r = document.createRange();
    r.setStart(text, 6);
    r.setEnd(text, 14);
    document.getSelection()!.removeAllRanges();
    document.getSelection()!.addRange(r);
    await key(ed, { key: ',', code: 'Comma', ctrlKey: true });
    expect(last()).toBe('Pulse <1>Imprimir</1> para empezar ya.');
    // Tag 2 before "ya".
    const tail = [...ed.childNodes].at(-1) as Text;
    caret(tail, tail.data.indexOf('ya'));
    await key(ed, { key: '2', code: 'Digit2', ctrlKey: true, altKey: true });
    expect(last()).toBe('Pulse <1>Imprimir</1> para empezar <2/>ya.');
    expect(document.querySelector('[data-testid="ed-tags"]')?.textContent).not.toContain('missing');
    // Nothing left to insert: the keys do nothing, and AltGr+digit (a brace on some layouts) is not a tag key.
    const count = ed.querySelectorAll('.lp-tag-chip').length;
    await key(ed, { key: ',', code: 'Comma', ctrlKey: true });
    expect(ed.querySelectorAll('.lp-tag-chip').length).toBe(count);
  });

  it('pastes no fake tags: a tag the source has and the translation lacks becomes its chip, any other is dropped', () => {
    expect(pastedValue('Pulse ⟨1⟩Imprimir⟨/1⟩ ya', SOURCE, '')).toBe('Pulse <1>Imprimir</1> ya');
    expect(pastedValue('a <1>b</1> ＜7＞ <2/><2/>', SOURCE, '<1>x</1>')).toBe('a b  <2/>');
    expect(pastedValue('x < 3 and 4 > 2', SOURCE, '')).toBe('x < 3 and 4 > 2');
    expect(missingTags(SOURCE, '<2/> and <1>')).toEqual([expect.objectContaining({ text: '</1>' })]);
  });
});

describe('TaggedText', () => {
  it('draws the same chips read-only', async () => {
    const host = document.createElement('div');
    document.body.appendChild(host);
    root = createRoot(host);
    await act(async () => root!.render(<TaggedText text={'a <1>b</1> ⟨2⟩'} />));
    expect([...host.querySelectorAll('.lp-tag-chip')].map((c) => c.textContent)).toEqual(['1', '/1']);
    expect(host.textContent).toBe('a 1b/1 ⟨2⟩');
  });
});
