// Database: none
import { checkIdentityRoundTrip, checkTranslatedRoundTrip, randomText, seededRandom } from '@linguaport/sdk/testing';
import { describe, expect, it } from 'vitest';
import { htmlFormat } from '../../server/formats/html.js';

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');
const upper = (source: string) => source.replace(/[a-z]+/g, (w) => w.toUpperCase());

const SAMPLE = `<!DOCTYPE html>
<html lang=en>
<head>
  <meta charset="utf-8">
  <meta name="description" content="A page about &quot;cats&quot;">
  <title>Cats &amp; dogs</title>
  <style>p { color: red; } /* <p>not text</p> */</style>
  <script>var s = "<b>not text</b>";</script>
</head>
<body>
  <!-- a comment <p>not text</p> -->
  <h1 class=title>Welcome to <em>our</em> site</h1>
  <p>This is <b>bold</b>, <a href="/x?a=1&amp;b=2" title="Go there">a link</a>
     and an image <img src=cat.png alt="A sleeping cat"> &nbsp;here.<br>
  Second line &copy; 2026 &unknown; done.
  <p>An unclosed paragraph
  <ul>
    <li>First item
    <li>Second <span class="x">item</span>
  </ul>
  <div>Loose text in a div <section><p>Nested para</p></section> after it</div>
  <table><tr><th>Name</th><td>Value <sup>2</sup></td></tr></table>
  <pre><code>const x = 1 &lt; 2;</code></pre>
  <form><label for=q>Search</label><input id=q placeholder='Type here' aria-label="Search box"><button>Go</button>
  <select><option>One</option><option value=2>Two</option></select></form>
</body>
</html>
`;

describe('HTML format', () => {
  it('reads block texts, inline markup as placeholders and translatable attributes as units', async () => {
    const file = await htmlFormat.parse(utf8(SAMPLE));
    const got = file.units.map((u) => [u.context.style, u.source]);
    expect(got).toEqual([
      ['description', 'A page about "cats"'],
      ['title', 'Cats & dogs'],
      ['h1', 'Welcome to <1>our</1> site'],
      ['title', 'Go there'],
      ['alt', 'A sleeping cat'],
      ['p', 'This is <1>bold</1>, <2>a link</2> and an image <3/> \u00a0here.<4/> Second line © 2026 <5/> done.'],
      ['p', 'An unclosed paragraph'],
      ['li', 'First item'],
      ['li', 'Second <1>item</1>'],
      ['div', 'Loose text in a div'],
      ['p', 'Nested para'],
      ['div', 'after it'],
      ['th', 'Name'],
      ['td', 'Value <1>2</1>'],
      ['label', 'Search'],
      ['placeholder', 'Type here'],
      ['aria-label', 'Search box'],
      ['button', 'Go'],
      ['option', 'One'],
      ['option', 'Two'],
    ]);
    const p = file.units[5]!;
    expect(p.tags['2']).toEqual({ kind: 'paired', original: '<a href="/x?a=1&amp;b=2" title="Go there">', closing: '</a>' });
    expect(p.tags['3']).toEqual({ kind: 'standalone', original: '<img src=cat.png alt="A sleeping cat">' });
    expect(p.tags['5']).toEqual({ kind: 'standalone', original: '&unknown;' });
  });

  it('gives back the same bytes, with CRLF and a byte-order mark', async () => {
    await checkIdentityRoundTrip(htmlFormat, utf8(SAMPLE), 'LF');
    await checkIdentityRoundTrip(htmlFormat, utf8('\uFEFF' + SAMPLE.replace(/\n/g, '\r\n')), 'BOM CRLF');
    await checkIdentityRoundTrip(htmlFormat, utf8('<p>Fragment <b>only'), 'fragment');
  });

  it('writes translations escaped, attributes inside tags translated, lang set, code untouched', async () => {
    const out = text(await checkTranslatedRoundTrip(htmlFormat, utf8(SAMPLE), upper));
    const withLang = text(await htmlFormat.write(await htmlFormat.parse(utf8(SAMPLE)), [], { targetLanguage: 'fr' }));
    expect(withLang).toBe(SAMPLE.replace('<html lang=en>', '<html lang="fr">'));
    expect(out).toContain('<meta name="description" content="A PAGE ABOUT &quot;CATS&quot;">');
    expect(out).toContain('<title>CATS &amp; DOGS</title>');
    expect(out).toContain('<style>p { color: red; } /* <p>not text</p> */</style>');
    expect(out).toContain('<h1 class=title>WELCOME TO <em>OUR</em> SITE</h1>');
    expect(out).toContain('<p>THIS IS <b>BOLD</b>, <a href="/x?a=1&amp;b=2" title="GO THERE">A LINK</a> AND AN IMAGE <img src=cat.png alt="A SLEEPING CAT"> &nbsp;HERE.<br> SECOND LINE © 2026 &unknown; DONE.\n  <p>AN UNCLOSED PARAGRAPH\n');
    expect(out).toContain('<div>LOOSE TEXT IN A DIV <section><p>NESTED PARA</p></section> AFTER IT</div>');
    expect(out).toContain('<pre><code>const x = 1 &lt; 2;</code></pre>');
    expect(out).toContain(`<input id=q placeholder='TYPE HERE' aria-label="SEARCH BOX"><button>GO</button>`);
  });

  it('translates an attribute inside an unchanged paragraph', async () => {
    const file = await htmlFormat.parse(utf8(SAMPLE));
    const alt = file.units.find((u) => u.context.style === 'alt')!;
    const out = text(await htmlFormat.write(file, [{ ...alt, target: 'Un chat "endormi"' }]));
    expect(out).toBe(SAMPLE.replace('alt="A sleeping cat"', 'alt="Un chat &quot;endormi&quot;"'));
  });

  it('writes references for non-ASCII text in a page with another charset', async () => {
    const page = '<html><head><meta charset="iso-8859-1"></head><body><p>Caf&eacute;</p></body></html>';
    const file = await htmlFormat.parse(utf8(page));
    expect(file.units[0]!.source).toBe('Café');
    expect(text(await htmlFormat.write(file, [{ ...file.units[0]!, target: 'Kaffee für 5 €' }]))).toContain('<p>Kaffee f&#252;r 5 &#8364;</p>');
  });

  it('round-trips 200 seeded random texts in paragraphs, list items and attributes', async () => {
    const random = seededRandom(777);
    const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    for (let i = 0; i < 200; i++) {
      const sample = `<html><body>\n<p>${esc(randomText(random, 120))} <b>${esc(randomText(random, 40))}</b></p>\n<ul><li>x ${esc(randomText(random, 80))}<li><img alt="${esc(randomText(random, 40))}"> y</ul>\n<p>${randomText(random, 80).replace(/<(?=[a-z/!?])/gi, '&lt;')}</p></body></html>`;
      await checkIdentityRoundTrip(htmlFormat, utf8(sample), `seed 777 #${i}`);
      await checkTranslatedRoundTrip(htmlFormat, utf8(sample), (s) => 'Ü ' + upper(s), `seed 777 #${i}`);
    }
  });

  it('reads large and pathological pages without slowing to a crawl', async () => {
    const started = Date.now();
    await htmlFormat.parse(utf8('<div><b>'.repeat(20_000) + 'text'));
    await htmlFormat.parse(utf8('<svg>'.repeat(20_000)));
    await checkIdentityRoundTrip(htmlFormat, utf8(SAMPLE.repeat(200)), 'large');
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('refuses binary data and a file cut inside a tag or a comment', async () => {
    await expect(htmlFormat.parse(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0xff]))).rejects.toThrow(/html: the file is not text/);
    await expect(htmlFormat.parse(utf8('<html><body><p class="intro'))).rejects.toThrow(/html: the file ends inside the tag <p> that starts at line 1/);
    await expect(htmlFormat.parse(utf8('<html>\n<!-- never closed <p>x</p>'))).rejects.toThrow(/html: the file ends inside a comment that starts at line 2/);
  });

  it('sniffs HTML and refuses other files', () => {
    expect(htmlFormat.sniff!(utf8(SAMPLE))).toBe(true);
    expect(htmlFormat.sniff!(utf8('\uFEFF<html><body></body></html>'))).toBe(true);
    expect(htmlFormat.sniff!(utf8('{"a": 1}'))).toBe(false);
    expect(htmlFormat.sniff!(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37, 0x0a, 0xe2, 0xe3, 0xcf]))).toBe(false);
  });
});
