import { defineServerPlugin, formatsOffThread } from '@linguaport/sdk/server';
import { htmlFormat } from './formats/html.js';
import { jsonFormat } from './formats/json.js';
import { markdownFormat } from './formats/markdown.js';
import { poFormat } from './formats/po.js';
import { srtFormat } from './formats/srt.js';
import { vttFormat } from './formats/vtt.js';
import { xliffFormat } from './formats/xliff.js';

/**
 * Text-based document formats: subtitles (SRT, WebVTT), software strings (gettext PO, JSON),
 * web pages (HTML, Markdown) and the exchange format of translation tools (XLIFF 1.2 and 2.x).
 */
// At the top level: the parsing worker loads this module and must know the same formats.
const formats = formatsOffThread('formats-text', [srtFormat, vttFormat, poFormat, jsonFormat, markdownFormat, htmlFormat, xliffFormat], { module: import.meta.url });

export default defineServerPlugin({
  setup(ctx) {
    // Files over a megabyte are read in a worker process with a heap limit (SDK formatsOffThread).
    for (const f of formats) ctx.formats.register(f);
  },
});
