import { createCanvas, GlobalFonts } from '@napi-rs/canvas';

// Test pictures drawn at test time: dark text on a light ground, as a photographed sign or a
// screenshot would have it. DejaVu and Noto CJK come from Debian (the same fonts the writer uses).

let registered = false;
function fonts(): void {
  if (registered) return;
  registered = true;
  GlobalFonts.registerFromPath('/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf');
  GlobalFonts.registerFromPath('/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc');
}

export const SIGN = 'EMERGENCY EXIT';
export const NOTICE = ['Please keep this door', 'closed at all times'];
export const CHINESE = '请勿吸烟';

export interface Drawn {
  png: Buffer;
  width: number;
  height: number;
  /** Where each text was drawn (its ink box, roughly). */
  boxes: Record<string, { x: number; y: number; w: number; h: number }>;
}

/** A sign: a light green panel on a grey wall, a heading and a two-line notice in dark green. */
export function signPicture(): Drawn {
  fonts();
  const width = 640;
  const height = 360;
  const c = createCanvas(width, height);
  const g = c.getContext('2d');
  g.fillStyle = '#8a8f94';
  g.fillRect(0, 0, width, height);
  g.fillStyle = '#e8f5e9';
  g.fillRect(30, 30, width - 60, height - 60);
  g.fillStyle = '#0b3d1a';
  g.textBaseline = 'top';
  g.font = 'bold 48px "DejaVu Sans"';
  g.fillText(SIGN, 70, 80);
  const signW = g.measureText(SIGN).width;
  g.font = 'bold 28px "DejaVu Sans"';
  g.fillText(NOTICE[0]!, 70, 190);
  g.fillText(NOTICE[1]!, 70, 230);
  const noticeW = Math.max(...NOTICE.map((l) => g.measureText(l).width));
  return { png: c.toBuffer('image/png'), width, height, boxes: { sign: { x: 70, y: 80, w: signW, h: 48 }, notice: { x: 70, y: 190, w: noticeW, h: 68 } } };
}

/** One Chinese line on white. */
export function chinesePicture(): Drawn {
  fonts();
  const width = 420;
  const height = 140;
  const c = createCanvas(width, height);
  const g = c.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, width, height);
  g.fillStyle = '#202020';
  g.textBaseline = 'top';
  g.font = '48px "Noto Sans CJK JP"';
  g.fillText(CHINESE, 60, 40);
  return { png: c.toBuffer('image/png'), width, height, boxes: { line: { x: 60, y: 40, w: g.measureText(CHINESE).width, h: 60 } } };
}

/** A sign under light falling from the right: its panel goes from grey-blue on the left to white. */
export function shadedSign(): Drawn {
  fonts();
  const width = 640;
  const height = 240;
  const c = createCanvas(width, height);
  const g = c.getContext('2d');
  const light = g.createLinearGradient(0, 0, width, 0);
  light.addColorStop(0, '#a8b4c0');
  light.addColorStop(1, '#ffffff');
  g.fillStyle = light;
  g.fillRect(0, 0, width, height);
  g.fillStyle = '#101820';
  g.textBaseline = 'top';
  g.font = 'bold 48px "DejaVu Sans"';
  g.fillText(SIGN, 70, 90);
  return { png: c.toBuffer('image/png'), width, height, boxes: { sign: { x: 70, y: 90, w: g.measureText(SIGN).width, h: 48 } } };
}
