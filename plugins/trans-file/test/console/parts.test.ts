import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { partLabel, PART_NUMBERED, PART_WORDS } from '../../console/parts.js';

/** Issue 22: the document view's unit labels ("body", "page 1", "footnote") in the reader's language. */
const locale = (name: string) => JSON.parse(readFileSync(new URL(`../../locales/${name}.json`, import.meta.url), 'utf8')).transFile as Record<string, unknown>;

/** A minimal i18next-like t over one locale's transFile namespace. */
function tOf(name: string) {
  const ns = locale(name);
  return (key: string, params: Record<string, unknown> = {}) => {
    const value = key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], ns);
    if (typeof value !== 'string') throw new Error(`${name}: no ${key}`);
    return value.replace(/\{\{(\w+)\}\}/g, (_, p: string) => String(params[p]));
  };
}

describe('unit part labels', () => {
  it('shows the readers\u2019 part words translated, in both languages', () => {
    const en = tOf('en-US');
    const zh = tOf('zh-CN');
    expect(partLabel('body', en)).toBe('Body');
    expect(partLabel('footnote', en)).toBe('Footnote');
    expect(partLabel('page 1', en)).toBe('Page 1');
    expect(partLabel('body', zh)).toBe('正文');
    expect(partLabel('footnote', zh)).toBe('脚注');
    expect(partLabel('page 1', zh)).toBe('第 1 页');
    expect(partLabel('slide notes 3', zh)).toBe('第 3 张幻灯片的备注');
    // Every word and numbered label the readers write has a text in both locales (t throws otherwise).
    for (const t of [en, zh]) {
      for (const w of PART_WORDS) expect(partLabel(w, t)).not.toBe(w);
      for (const n of PART_NUMBERED) expect(partLabel(`${n} 2`, t)).toContain('2');
    }
  });

  it('keeps the document\u2019s own names as they are', () => {
    const zh = tOf('zh-CN');
    expect(partLabel('Q3 budget', zh)).toBe('Q3 budget');
    expect(partLabel('/items/0/title', zh)).toBe('/items/0/title');
    expect(partLabel('page one', zh)).toBe('page one');
  });
});
