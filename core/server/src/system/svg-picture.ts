import { createCanvas, loadImage } from '@napi-rs/canvas';
import { attrsOf, escapeXml, localName, parseXml, type XElement, type XNode } from '@linguaport/sdk/interchange';

/**
 * An uploaded SVG picture becomes a PNG before it is stored: a PNG carries no script, no foreign HTML
 * and no reference to anything else, whoever opens it and however. Before it is drawn, the SVG loses
 * what the renderer could follow (external `href`s, `url(...)` outside the document, DOCTYPE entities)
 * and what is never a picture (script, foreignObject, event attributes).
 */

export class SvgRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SvgRefusal';
  }
}

const MAX_NODES = 50_000;
const MAX_SIDE = 2048;
const DROPPED = new Set(['script', 'foreignobject', 'iframe', 'object', 'embed', 'audio', 'video', 'handler', 'listener']);
const RASTER_DATA = /^data:image\/(png|jpe?g|gif|webp);base64,[a-z0-9+/=\s]*$/i;

function referenceAllowed(value: string): boolean {
  const v = value.trim();
  return v.startsWith('#') || RASTER_DATA.test(v);
}

function cssAllowed(css: string): boolean {
  if (/@import|\\|expression\s*\(|image-set|binding|behavior/i.test(css)) return false;
  for (const m of css.matchAll(/url\s*\(\s*(["']?)([^"')]*)\1\s*\)/gi)) if (!m[2]!.trim().startsWith('#')) return false;
  return !/url\s*\((?!\s*["']?#)/i.test(css);
}

/** The SVG without scripts, foreign content, event attributes and outside references; its root sized `width` x `height`. */
export function cleanSvg(text: string, size?: { width: number; height: number; viewBox: string }): string {
  // `size.viewBox` is used when the root has none of its own.
  let doc;
  try {
    doc = parseXml(text, { maxNodes: MAX_NODES });
  } catch (err) {
    throw new SvgRefusal(`the SVG cannot be read: ${(err as Error).message}`);
  }
  let root: XElement | null = null;
  const write = (nodes: XNode[]): string => {
    let s = '';
    for (const n of nodes) {
      if (n.type === 'other') continue; // DOCTYPE (entities), comments, processing instructions
      if (n.type === 'text') {
        s += n.raw.startsWith('<![CDATA[') ? escapeXml(n.raw.slice(9, -3)) : n.raw;
        continue;
      }
      const local = localName(n.name).toLowerCase();
      if (DROPPED.has(local)) continue;
      let attrs: Record<string, string>;
      try {
        attrs = attrsOf(n);
      } catch (err) {
        throw new SvgRefusal(`the SVG cannot be read: ${(err as Error).message}`);
      }
      if (local === 'style' && !cssAllowed(n.children.map((c) => (c.type === 'text' ? (c.raw.startsWith('<![CDATA[') ? c.raw.slice(9, -3) : c.raw) : '')).join(''))) continue;
      const kept: [string, string][] = [];
      for (const [name, value] of Object.entries(attrs)) {
        const a = localName(name).toLowerCase();
        if (a.startsWith('on')) continue;
        if ((a === 'href' || a === 'src') && !referenceAllowed(value)) continue;
        if (a === 'style' && !cssAllowed(value)) continue;
        if (/url\s*\(/i.test(value) && !cssAllowed(value)) continue;
        if (!root && size && (a === 'width' || a === 'height')) continue;
        kept.push([name, value]);
      }
      if (!root && size) {
        kept.push(['width', String(size.width)], ['height', String(size.height)]);
        if (!kept.some(([k]) => k === 'viewBox')) kept.push(['viewBox', size.viewBox]);
        // Proportions are kept by the box the picture is drawn into, not stretched.
      }
      if (!root) root = n;
      const open = `<${n.name}${kept.map(([k, v]) => ` ${k}="${escapeXml(v, true)}"`).join('')}`;
      s += n.close ? `${open}>${write(n.children)}${n.close}` : `${open}/>`;
    }
    return s;
  };
  const out = write(doc.children);
  if (!root || localName((root as XElement).name) !== 'svg') throw new SvgRefusal('the picture is not an SVG document');
  return out;
}

/**
 * The SVG drawn as a PNG that fits `box` (its proportions kept; by default its own size, at most
 * 2048 pixels a side).
 */
export async function rasteriseSvg(bytes: Buffer, box?: { width: number; height: number }): Promise<Buffer> {
  const text = bytes.toString('utf8');
  // First pass: the picture's own size and proportions, from a cleaned copy.
  let img;
  try {
    img = await loadImage(Buffer.from(cleanSvg(text), 'utf8'));
  } catch (err) {
    if (err instanceof SvgRefusal) throw err;
    throw new SvgRefusal(`the SVG cannot be drawn: ${(err as Error).message}`);
  }
  const w0 = Math.max(1, img.width);
  const h0 = Math.max(1, img.height);
  const fit = box ? Math.min(box.width / w0, box.height / h0) : 1;
  const scale = Math.min(fit, MAX_SIDE / w0, MAX_SIDE / h0);
  const width = Math.max(1, Math.round(w0 * scale));
  const height = Math.max(1, Math.round(h0 * scale));
  // Second pass at the final size, so the vector is drawn sharp rather than stretched.
  const sized = await loadImage(Buffer.from(cleanSvg(text, { width, height, viewBox: `0 0 ${w0} ${h0}` }), 'utf8'));
  const canvas = createCanvas(width, height);
  canvas.getContext('2d').drawImage(sized, 0, 0, width, height);
  return canvas.encode('png');
}
