import { createCanvas, GlobalFonts } from '@napi-rs/canvas';

// Pictures with text drawn at test time, for OCR engines and the picture formats: Debian's DejaVu
// Sans Bold and Noto Sans CJK (the fonts the picture writer uses), registered once.

let registered = false;
function registerFonts(): void {
  if (registered) return;
  registered = true;
  GlobalFonts.registerFromPath('/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf');
  GlobalFonts.registerFromPath('/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc');
}

export interface PictureLine {
  text: string;
  /** Top of the line (the text hangs from it). */
  y: number;
  /** Left edge; 40 when left out. */
  x?: number;
  /** A CSS font; `bold 48px "DejaVu Sans"` when left out (`48px "Noto Sans CJK JP"` for Chinese). */
  font?: string;
}

export interface TextPictureOptions {
  width: number;
  height: number;
  lines: PictureLine[];
  /** Ground colour; white when left out. */
  background?: string;
  /** Text colour; near black when left out. */
  ink?: string;
  type?: 'image/png' | 'image/jpeg';
}

/** A picture of text lines on a plain ground, as a photographed sign or a screenshot would show it. */
export function textPicture(options: TextPictureOptions): Buffer {
  registerFonts();
  const { width, height } = options;
  const c = createCanvas(width, height);
  const g = c.getContext('2d');
  g.fillStyle = options.background ?? '#ffffff';
  g.fillRect(0, 0, width, height);
  g.fillStyle = options.ink ?? '#111111';
  g.textBaseline = 'top';
  for (const line of options.lines) {
    g.font = line.font ?? 'bold 48px "DejaVu Sans"';
    g.fillText(line.text, line.x ?? 40, line.y);
  }
  return options.type === 'image/jpeg' ? c.toBuffer('image/jpeg', 95) : c.toBuffer('image/png');
}
