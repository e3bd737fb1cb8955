import { escapeXml, withAttr } from '@linguaport/sdk/interchange';
import type { OfficeLanguage } from '@linguaport/sdk/server';
import { wordLanguage } from './ooxml/runs.js';

/**
 * The target language written where an office document states its language, so Word, PowerPoint and
 * LibreOffice spell-check the translation in it: the document's properties (`dc:language`), Word's
 * styles and defaults (`w:lang`), PowerPoint's default text style (`a:defRPr lang`), ODF's text
 * properties (`fo:language`/`fo:country`, or their Asian and complex-script twins). Runs written with a
 * translation carry the language themselves (runs.ts).
 */

const quoted = (v: string) => escapeXml(v, true);
const DC = 'http://purl.org/dc/elements/1.1/';

/** `dc:language` in OOXML's core properties or ODF's meta, added when missing. */
export function documentLanguage(xml: string, tag: string, container: 'cp:coreProperties' | 'office:meta'): string {
  const existing = /<dc:language(\s[^>]*)?>[^<]*<\/dc:language>|<dc:language(\s[^>]*)?\/>/.exec(xml);
  if (existing) return xml.slice(0, existing.index) + `<dc:language>${escapeXml(tag)}</dc:language>` + xml.slice(existing.index + existing[0].length);
  const close = xml.lastIndexOf(`</${container}>`);
  if (close < 0) return xml;
  const declared = new RegExp(`xmlns:dc=["']${DC.replace(/[./]/g, '\\$&')}["']`).test(xml);
  return `${xml.slice(0, close)}<dc:language${declared ? '' : ` xmlns:dc="${DC}"`}>${escapeXml(tag)}</dc:language>${xml.slice(close)}`;
}

/** Word's styles: every `w:lang` in the slot of the language's script, and the document defaults given one. */
export function wordStylesLanguage(xml: string, language: OfficeLanguage): string {
  let out = xml.replace(/<w:lang\b[^>]*?\/>/g, (tag) => wordLanguage(tag, language));
  const defaults = /<w:rPrDefault\b[^>]*?(\/>|>([\s\S]*?)<\/w:rPrDefault>)/.exec(out);
  const rPrIn = (inner: string) => /<w:rPr\b[^>]*?\/>|<w:rPr\b[^>]*>[\s\S]*?<\/w:rPr>/.exec(inner);
  if (defaults) {
    const inner = defaults[2] ?? '';
    if (inner.includes('<w:lang')) return out;
    const rPr = rPrIn(inner);
    const replaced = rPr ? inner.slice(0, rPr.index) + wordLanguage(rPr[0], language) + inner.slice(rPr.index + rPr[0].length) : wordLanguage('', language) + inner;
    return `${out.slice(0, defaults.index)}<w:rPrDefault>${replaced}</w:rPrDefault>${out.slice(defaults.index + defaults[0].length)}`;
  }
  const docDefaults = /<w:docDefaults\b[^>]*?(\/>|>)/.exec(out);
  const rPrDefault = `<w:rPrDefault>${wordLanguage('', language)}</w:rPrDefault>`;
  if (docDefaults) {
    const at = docDefaults.index + docDefaults[0].length;
    // rPrDefault comes first in docDefaults.
    return docDefaults[1] === '/>' ? `${out.slice(0, docDefaults.index)}<w:docDefaults>${rPrDefault}</w:docDefaults>${out.slice(at)}` : out.slice(0, at) + rPrDefault + out.slice(at);
  }
  const styles = /<w:styles\b[^>]*>/.exec(out);
  if (styles) out = out.slice(0, styles.index + styles[0].length) + `<w:docDefaults>${rPrDefault}</w:docDefaults>` + out.slice(styles.index + styles[0].length);
  return out;
}

/** PowerPoint's default text styles: `lang` on every `a:defRPr` that names one. */
export function drawingDefaultsLanguage(xml: string, language: OfficeLanguage): string {
  return xml.replace(/<a:defRPr\b[^>]*?\/?>/g, (tag) => (/\slang=/.test(tag) ? withAttr(tag, 'lang', language.tag, quoted) : tag));
}

/** ODF's attributes for a language, in the slot of its script. */
function odfAttributes(language: OfficeLanguage): Array<[string, string]> {
  const [lang, country] = language.kind === 'asian' ? ['style:language-asian', 'style:country-asian'] : language.kind === 'complex' ? ['style:language-complex', 'style:country-complex'] : ['fo:language', 'fo:country'];
  return [
    [lang, language.language],
    [country, language.region ?? 'none'],
  ];
}

/** ODF styles: every text properties that names a language in that slot, and the default paragraph style given one. */
export function odfStylesLanguage(xml: string, language: OfficeLanguage, isStylesPart: boolean): string {
  const attrs = odfAttributes(language);
  const set = (tag: string) => attrs.reduce((t, [name, value]) => withAttr(t, name, value, quoted), tag);
  let out = xml.replace(/<style:text-properties\b[^>]*?\/?>/g, (tag) => (new RegExp(`\\s${attrs[0]![0]}=`).test(tag) ? set(tag) : tag));
  if (!isStylesPart) return out;
  const defaults = /<style:default-style\b[^>]*style:family="paragraph"[^>]*?(\/>|>([\s\S]*?)<\/style:default-style>)/.exec(out);
  if (defaults) {
    const inner = defaults[2] ?? '';
    if (/<style:text-properties\b/.test(inner)) {
      const text = /<style:text-properties\b[^>]*?\/?>/.exec(inner)!;
      const replaced = inner.slice(0, text.index) + set(text[0]) + inner.slice(text.index + text[0].length);
      return out.slice(0, defaults.index) + defaults[0].replace(inner, replaced) + out.slice(defaults.index + defaults[0].length);
    }
    const open = defaults[0].slice(0, defaults[0].indexOf('>') + 1).replace(/\/>$/, '>');
    return `${out.slice(0, defaults.index)}${open}${inner}${set('<style:text-properties/>')}</style:default-style>${out.slice(defaults.index + defaults[0].length)}`;
  }
  const styles = /<office:styles\b[^>]*?(\/>|>)/.exec(out);
  const added = `<style:default-style style:family="paragraph">${set('<style:text-properties/>')}</style:default-style>`;
  if (styles) out = styles[1] === '/>' ? `${out.slice(0, styles.index)}<office:styles>${added}</office:styles>${out.slice(styles.index + styles[0].length)}` : out.slice(0, styles.index + styles[0].length) + added + out.slice(styles.index + styles[0].length);
  return out;
}
