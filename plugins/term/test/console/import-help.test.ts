import { describe, expect, it } from 'vitest';
import en from '../../locales/en-US.json';
import zh from '../../locales/zh-CN.json';

// The import card's help is all a user reads before choosing a file: it named neither TBX nor CSV, nor
// that a header row maps the columns by name (issue 22, "Imports"), so a CSV or a spreadsheet with its
// columns in another order looked unsupported.
describe('the term import help', () => {
  it.each([
    ['en-US', en.term.importHelp, /header/i],
    ['zh-CN', zh.term.importHelp, /表头/],
  ])('in %s names every format the import reads and the header row', (_, help, header) => {
    for (const format of ['TBX', 'CSV', 'TXT', 'XLS', 'XLSX']) expect(help).toMatch(new RegExp(`\\b${format}\\b`));
    expect(help).toMatch(header);
  });
});
