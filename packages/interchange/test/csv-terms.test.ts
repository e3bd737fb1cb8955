import { describe, expect, it } from 'vitest';
import { randomText, seededRandom } from '@linguaport/sdk/testing';
import { readTermCsv, TermCsvError, writeTermCsv, type TermCsvRow } from '../src/csv-terms.js';

// Term lists as spreadsheets save them: RFC 4180 quoting, three separators, headers by role or by
// language, and the files the platform refuses (a byte-order mark, bytes that are no UTF-8).

const utf8 = (text: string) => Buffer.from(text, 'utf8');

describe('reading a term CSV', () => {
  it('reads quoted cells with separators, doubled quotes and line ends, CRLF rows, counting rows as a spreadsheet does', () => {
    const csv = 'source,target,note\r\napple,苹果,fruit\r\n"red, ripe apple","红""苹果""","two\r\nlines"\r\n"line\nbreak",换行\r\npear,梨\r\n';
    const { rows, rejected } = readTermCsv(utf8(csv));
    expect(rejected).toEqual([]);
    expect(rows).toEqual([
      { row: 2, source: 'apple', target: '苹果', note: 'fruit' },
      { row: 3, source: 'red, ripe apple', target: '红"苹果"', note: 'two\r\nlines' },
      { row: 4, source: 'line\nbreak', target: '换行' },
      { row: 5, source: 'pear', target: '梨' },
    ]);
  });

  it('takes the separator the header line uses: comma, semicolon or tab, with LF or CR line ends', () => {
    expect(readTermCsv('term;translation;note\nA, B;甲，乙;x,y\n').rows).toEqual([{ row: 2, source: 'A, B', target: '甲，乙', note: 'x,y' }]);
    expect(readTermCsv('source\ttarget\nA; B\t"甲\t乙"\n').rows).toEqual([{ row: 2, source: 'A; B', target: '甲\t乙' }]);
    // Separators inside a quoted header cell do not count.
    expect(readTermCsv('source,target,"note; or; comment"\r"A; B",甲,x\r').rows).toEqual([{ row: 2, source: 'A; B', target: '甲' }]);
  });

  it('finds the columns by role name, in English or Chinese, in any order and among other columns', () => {
    expect(readTermCsv('id,Translation,Term,Notes\n7,苹果,apple,fruit\n').rows).toEqual([{ row: 2, source: 'apple', target: '苹果', note: 'fruit' }]);
    expect(readTermCsv('原文,译文,备注\napple,苹果,\n').rows).toEqual([{ row: 2, source: 'apple', target: '苹果' }]);
  });

  it('finds the columns by language: in file order, or as the term base’s direction picks them', () => {
    const plain = readTermCsv('en,zh-CN\napple,苹果\n');
    expect(plain).toMatchObject({ sourceLanguage: 'en', targetLanguage: 'zh-CN', rows: [{ source: 'apple', target: '苹果' }] });
    // The term base is en -> zh-CN: the columns are taken by language, whatever their order or region.
    const swapped = readTermCsv('zh-Hans,en-US,note\n苹果,apple,x\n', { sourceLanguage: 'en', targetLanguage: 'zh-CN' });
    expect(swapped).toMatchObject({ sourceLanguage: 'en', targetLanguage: 'zh-CN', rows: [{ source: 'apple', target: '苹果', note: 'x' }] });
    expect(readTermCsv('中文,English\n苹果,apple\n', { sourceLanguage: 'en-US' }).rows).toEqual([{ row: 2, source: 'apple', target: '苹果' }]);
    expect(readTermCsv('key,ja,fr\nk,りんご,pomme\n', { targetLanguage: 'ja' }).rows).toEqual([{ row: 2, source: 'pomme', target: 'りんご' }]);
  });

  it('finds the columns by role name in either language whatever their case, spacing and order', () => {
    const csv = 'Forbidden,Part Of Speech,TARGET TERM,note,Source_Term,Domain\nno,noun,disco duro,x,hard disk,IT\n是,名词,cortafuegos,,firewall,\n';
    expect(readTermCsv(csv)).toMatchObject({ rejected: [], rows: [
      { row: 2, source: 'hard disk', target: 'disco duro', partOfSpeech: 'noun', note: 'x', domain: 'IT' },
      { row: 3, source: 'firewall', target: 'cortafuegos', partOfSpeech: '名词', forbidden: true },
    ] });
    const zh = readTermCsv('是否禁用,目标 术语,领域,源术语,词 性,备注\n否,enrutador,网络,router,名词,\n');
    expect(zh.rows).toEqual([{ row: 2, source: 'router', target: 'enrutador', domain: '网络', partOfSpeech: '名词' }]);
  });

  it('reads a file without a header in the positional order (source, target, part of speech, note, domain, forbidden) from row 1', () => {
    expect(readTermCsv('hard disk,disco duro,noun,x,IT,yes\nrouter,enrutador\n')).toEqual({ rejected: [], rows: [
      { row: 1, source: 'hard disk', target: 'disco duro', partOfSpeech: 'noun', note: 'x', domain: 'IT', forbidden: true },
      { row: 2, source: 'router', target: 'enrutador' },
    ] });
    // One language-like word (`no`: Norwegian) does not make a header.
    expect(readTermCsv('apple,manzana,,,,no\n').rows).toEqual([{ row: 1, source: 'apple', target: 'manzana' }]);
    expect(readTermCsv('word,meaning\na,b\n').rows).toEqual([{ row: 1, source: 'word', target: 'meaning' }, { row: 2, source: 'a', target: 'b' }]);
  });

  it('reports a forbidden cell that is no clear yes or no with its row and value, and reads the clear ones', () => {
    const { rows, rejected } = readTermCsv('source,target,forbidden\na,b,YES\nc,d,n\ne,f,maybe\ng,h,\ni,j,2\nk,l,否\n');
    expect(rows.map((r) => [r.row, !!r.forbidden])).toEqual([[2, true], [3, false], [5, false], [7, false]]);
    expect(rejected).toEqual([
      { row: 4, code: 'unclearForbidden', value: 'maybe', reason: 'the forbidden column says "maybe": write yes or no' },
      { row: 6, code: 'unclearForbidden', value: '2', reason: 'the forbidden column says "2": write yes or no' },
    ]);
  });

  it('refuses a header without source and target, or with other languages than the term base’s, naming row 1', () => {
    expect(() => readTermCsv('source,meaning\na,b\n')).toThrow(/names no target column/);
    expect(() => readTermCsv('note,meaning\na,b\n')).toThrow(/^row 1: the header \(note \| meaning\) names no source column/);
    expect(() => readTermCsv('fr,de\npomme,Apfel\n', { sourceLanguage: 'en', targetLanguage: 'zh-CN' })).toThrow(/^row 1: the header names fr, de; the term base's source language is en/);
    expect(() => readTermCsv('en,de\napple,Apfel\n', { sourceLanguage: 'en', targetLanguage: 'zh-CN' })).toThrow(/target language is zh-CN/);
    expect(() => readTermCsv('forbidden\na\n')).toThrow(TermCsvError);
  });

  it('refuses a byte-order mark, UTF-16, bytes that are no UTF-8, an empty file and an unclosed quote, saying why', () => {
    expect(() => readTermCsv(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8('source,target\na,b\n')]))).toThrow(/byte-order mark.*UTF-8 without BOM/);
    expect(() => readTermCsv('\uFEFFsource,target\na,b\n')).toThrow(/byte-order mark/);
    expect(() => readTermCsv(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('source,target\n', 'utf16le')]))).toThrow(/UTF-16/);
    // GBK bytes of 苹果 on line 3 (bytes 29 to 32): C6 BB happens to be UTF-8 too, B9 is not.
    const gbk = Buffer.concat([utf8('source,target\napple,ok\npear,'), Buffer.from([0xc6, 0xbb, 0xb9, 0xfb]), utf8('\n')]);
    expect(() => readTermCsv(gbk)).toThrow(/not UTF-8 \(byte 31, line 3\)/);
    for (const bad of [[0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe4, 0xb8]]) {
      expect(() => readTermCsv(Buffer.concat([utf8('source,target\na,'), Buffer.from(bad)])), bad.join(' ')).toThrow(/not UTF-8 \(byte 17, line 2\)/);
    }
    expect(() => readTermCsv('')).toThrow(/empty/);
    expect(() => readTermCsv(' \r\n')).toThrow(/empty/);
    expect(() => readTermCsv('source,target\na,b\n"c,d\ne,f\n')).toThrow(/^row 3: a quoted cell is never closed/);
  });

  it('rejects each row that cannot be a term with its row number and reason, and keeps reading', () => {
    const csv = [
      'source,target,note',
      'apple,苹果,ok', // 2
      ',梨,no source', // 3
      'banana,,no target', // 4
      '  ,\t,both blank', // 5
      '', // 6: a blank line is no row
      '"grape"s,葡萄', // 7
      'kiwi, fruit,猕猴桃,x', // 8: an unquoted comma
      'melon,瓜,,,', // 9: padding is fine
      'lemon', // 10: too few cells
      "'=1+2,'@公式,'-note", // 11: the formula guard comes off
      ' plum ,  李  ', // 12
    ].join('\n');
    const { rows, rejected } = readTermCsv(csv);
    expect(rows).toEqual([
      { row: 2, source: 'apple', target: '苹果', note: 'ok' },
      { row: 9, source: 'melon', target: '瓜' },
      { row: 11, source: '=1+2', target: '@公式', note: '-note' },
      { row: 12, source: 'plum', target: '李' },
    ]);
    expect(rejected).toEqual([
      { row: 3, code: 'emptySource', reason: 'the source is empty' },
      { row: 4, code: 'emptyTarget', reason: 'the target is empty' },
      { row: 5, code: 'emptySourceAndTarget', reason: 'the source and the target are empty' },
      { row: 7, code: 'textAfterQuote', reason: expect.stringMatching(/closing quote/) },
      { row: 8, code: 'extraCells', reason: '4 cells where the header has 3: a term holding "," must be quoted' },
      { row: 10, code: 'emptyTarget', reason: 'the target is empty' },
    ]);
  });
});

describe('writing a term CSV', () => {
  it('writes a header of the languages, quotes where needed, CRLF rows, and guards cells a spreadsheet would run as formulas', () => {
    const csv = writeTermCsv(
      [
        { source: 'apple', target: '苹果' },
        { source: 'red, ripe', target: '"红"', note: 'two\nlines' },
        { source: '=HYPERLINK("http://x")', target: '+1', note: '@me' },
        { source: '-ism', target: "'=already guarded" },
      ],
      { sourceLanguage: 'en', targetLanguage: 'zh-CN' },
    );
    expect(csv).toBe(['en,zh-CN,note', 'apple,苹果,', '"red, ripe","""红""","two\nlines"', `"'=HYPERLINK(""http://x"")",'+1,'@me`, "'-ism,''=already guarded,", ''].join('\r\n'));
    expect(writeTermCsv([{ source: 'a;b', target: 'c,d' }], { sourceLanguage: 'en', targetLanguage: 'fr', separator: ';' })).toBe('en;fr\r\n"a;b";c,d\r\n');
    expect(writeTermCsv([], { sourceLanguage: 'en', targetLanguage: 'fr' })).toBe('en,fr\r\n');
  });

  it('writes part of speech, domain and forbidden columns when a row has them, and reads them by name in English or Chinese', () => {
    const csv = writeTermCsv(
      [
        { source: 'hard disk', target: 'disco rígido', forbidden: true, partOfSpeech: 'noun', domain: 'IT' },
        { source: 'router', target: 'enrutador', note: 'network' },
      ],
      { sourceLanguage: 'en', targetLanguage: 'es' },
    );
    expect(csv).toBe(['en,es,note,part of speech,domain,forbidden', 'hard disk,disco rígido,,noun,IT,yes', 'router,enrutador,network,,,', ''].join('\r\n'));
    expect(readTermCsv('术语,译文,词性,领域,禁用\n硬盘,disco duro,名词,IT,是\nA,B,,,\n').rows).toEqual([
      { row: 2, source: '硬盘', target: 'disco duro', partOfSpeech: '名词', domain: 'IT', forbidden: true },
      { row: 3, source: 'A', target: 'B' },
    ]);
  });

  it('reads back what it writes, with every separator (300 seeded rows each)', () => {
    for (const separator of [',', ';', '\t'] as const) {
      const random = seededRandom(4180 + separator.charCodeAt(0));
      const nonEmpty = (max: number) => {
        const text = randomText(random, max).trim();
        return text || 'x';
      };
      const rows: Array<Omit<TermCsvRow, 'row'>> = Array.from({ length: 300 }, (_, i) => {
        const row: Omit<TermCsvRow, 'row'> = { source: random() < 0.1 ? `=${nonEmpty(20)}` : nonEmpty(40), target: random() < 0.1 ? `'-${nonEmpty(10)}` : nonEmpty(40) };
        if (random() < 0.5) row.note = `${i} ${nonEmpty(30)}`;
        // Every field of a term goes out and comes back (issue 23): part of speech, domain, forbidden.
        if (random() < 0.3) row.partOfSpeech = random() < 0.5 ? 'noun' : nonEmpty(12);
        if (random() < 0.3) row.domain = nonEmpty(20);
        if (random() < 0.2) row.forbidden = true;
        return row;
      });
      const csv = writeTermCsv(rows, { sourceLanguage: 'en', targetLanguage: 'zh-CN', separator });
      const back = readTermCsv(utf8(csv), { sourceLanguage: 'en', targetLanguage: 'zh-CN' });
      expect(back.rejected).toEqual([]);
      expect(back.rows.map(({ row: _, ...rest }) => rest)).toEqual(rows);
      // Rows are records: a term with a line break inside still takes one row number.
      expect(back.rows.map((r) => r.row)).toEqual(rows.map((_, i) => i + 2));
    }
  });
});
