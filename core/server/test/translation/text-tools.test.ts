// Database: none
import { describe, expect, it } from 'vitest';
import { detectLanguage, segmentWords, splitSentences } from '../../src/translation/text-tools.js';

const sentences = (text: string, lang = 'en') => [...splitSentences(text, lang)].map((s) => s.text.trim());
const enabled = ['en', 'es', 'fr', 'ca', 'zh-CN', 'ja'];

describe('detectLanguage', () => {
  it('answers unknown for strings too short to tell', async () => {
    expect(await detectLanguage('ok', enabled)).toEqual({ language: 'unknown', confidence: 0 });
    expect((await detectLanguage('the car', enabled)).language).toBe('unknown');
    expect((await detectLanguage('12345 !!!', enabled)).language).toBe('unknown');
  });

  it('detects full sentences among the enabled languages', async () => {
    expect((await detectLanguage('Where is the railway station, please?', enabled)).language).toBe('en');
    expect((await detectLanguage('¿Dónde está la estación de tren, por favor?', enabled)).language).toBe('es');
    expect((await detectLanguage('Où est la gare, s’il vous plaît ?', enabled)).language).toBe('fr');
    expect((await detectLanguage('El gat és negre i la casa és molt gran.', enabled)).language).toBe('ca');
  });

  it('detects a clear sentence in a language no engine takes, named by its own code', async () => {
    const engines = ['en', 'es'];
    expect((await detectLanguage('Kannst du mir bitte sagen, wann der nächste Zug nach Hamburg fährt?', engines)).language).toBe('de');
    expect((await detectLanguage('我们每年夏天都会回老家看望爷爷奶奶。', engines)).language).toBe('zh');
    expect((await detectLanguage('Москва — столица России и крупнейший город страны.', engines)).language).toBe('ru');
    expect((await detectLanguage('今日はとても良い天気ですね。', engines)).language).toBe('ja');
    expect((await detectLanguage('¿Dónde está la estación de tren, por favor?', ['en', 'fr'])).language).toBe('es');
  });

  it('settles Spanish against Catalan by spelling, whichever the engines take', async () => {
    for (const engines of [enabled, ['en', 'ca'], []]) {
      expect((await detectLanguage('El gato duerme en el sofá rojo de la casa.', engines)).language).toBe('es');
      expect((await detectLanguage('El gat dorm al sofà vermell de la casa.', engines)).language).toBe('ca');
    }
  });

  it('tells Chinese and Japanese by script and returns the enabled code', async () => {
    expect(await detectLanguage('你好世界', enabled)).toMatchObject({ language: 'zh-CN' });
    expect(await detectLanguage('こんにちは世界', enabled)).toMatchObject({ language: 'ja' });
    expect((await detectLanguage('你好世界', ['en', 'es'])).language).toBe('zh');
  });
});

describe('splitSentences', () => {
  it('does not end sentences on titles, e.g. and i.e.', () => {
    expect(sentences('Dr. Smith met Mr. Jones and Mrs. Brown. They talked, e.g. about cars, i.e. fast ones. It was fun!')).toEqual([
      'Dr. Smith met Mr. Jones and Mrs. Brown.',
      'They talked, e.g. about cars, i.e. fast ones.',
      'It was fun!',
    ]);
  });

  it('keeps months, etc. and U.S. inside a sentence that continues, and ends on them when a new one starts', () => {
    expect(sentences('We met on Jan. 5 in the U.S. capital. We bought apples, pears, etc. and left.')).toEqual([
      'We met on Jan. 5 in the U.S. capital.',
      'We bought apples, pears, etc. and left.',
    ]);
    expect(sentences('He moved to the U.S. Then he worked.')).toEqual(['He moved to the U.S.', 'Then he worked.']);
  });

  it('splits Chinese on 。！？ and ；', () => {
    expect(sentences('今天天气很好。我们去公园吧！你去吗？我不去；他去。', 'zh-CN')).toEqual(['今天天气很好。', '我们去公园吧！', '你去吗？', '我不去；', '他去。']);
  });

  it('covers the text without gaps and is lazy', () => {
    const text = 'One. Two!  Three?\nFour';
    const it = splitSentences(text, 'en');
    const first = it.next();
    expect(first.done).toBe(false);
    const all = [first.value, ...it];
    expect(all.map((s) => s.text).join('')).toBe(text);
    for (const s of all) expect(text.slice(s.start, s.end)).toBe(s.text);
  });
});

describe('splitSentences over long texts', () => {
  it('splits a text far larger than its window exactly as it splits each part', () => {
    const base = 'Dr. Smith arrived on Jan. 5 with Mr. Jones. They talked about cars, e.g. fast ones! Was it fun? 今天天气很好。我们去公园吧！ ';
    const perBase = [...splitSentences(base, 'en')].length;
    const reps = Math.ceil(300_000 / base.length);
    const text = base.repeat(reps);
    let n = 0;
    let joined = '';
    for (const span of splitSentences(text, 'en')) {
      n++;
      joined += span.text;
    }
    expect(joined).toBe(text);
    expect(n).toBe(perBase * reps);
  });

  it('keeps a sentence longer than the window whole', () => {
    const long = `${'word '.repeat(5000)}end.`;
    expect(sentences(`${long} Next one.`)).toEqual([long, 'Next one.']);
  });
});

describe('segmentWords', () => {
  it('segments Chinese with jieba', () => {
    expect(segmentWords('我们今天去北京大学参观。', 'zh-CN')).toEqual(['我们', '今天', '去', '北京大学', '参观']);
  });

  it('segments other languages into word-like tokens', () => {
    expect(segmentWords("Don't stop, it's 3.5 km!", 'en')).toEqual(["Don't", 'stop', "it's", '3.5', 'km']);
    expect(segmentWords('¿Qué tal, señor?', 'es')).toEqual(['Qué', 'tal', 'señor']);
  });
});
