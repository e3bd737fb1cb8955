import { defineServerPlugin } from '@linguaport/sdk/server';
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
export default defineServerPlugin({
  setup(ctx) {
    for (const f of [srtFormat, vttFormat, poFormat, jsonFormat, markdownFormat, htmlFormat, xliffFormat]) ctx.formats.register(f);
  },
});
