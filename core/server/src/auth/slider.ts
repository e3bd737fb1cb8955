import type { LocalizedText } from '@linguaport/sdk/server';
import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { encodePng, pngDataUrl } from './png.js';
import type { KernelTables } from '../db/schema.js';

/**
 * The slider puzzle: the server draws a background with a piece-shaped hole at a random x and
 * hands out the background, the piece and the piece's y. The browser slides the piece; the
 * server compares the x it reports with the one it kept and, when close enough, issues a
 * one-use ticket that the next login must carry.
 */

export const WIDTH = 300;
export const HEIGHT = 150;
export const PIECE_SIZE = 40;
const KNOB = 7;
export const PIECE_WIDTH = PIECE_SIZE + KNOB + 1;
export const PIECE_HEIGHT = PIECE_SIZE;
/** How far off the reported x may be, in pixels. */
export const TOLERANCE_PX = 4;
/** A puzzle must be solved, and its ticket used, within this time. */
export const PUZZLE_VALIDITY_MS = 2 * 60_000;
/** Puzzles and tickets older than this are deleted when a new one is made. */
const RETENTION_MS = 60 * 60_000;

/** The piece: a square with a round knob on its right side. */
function inPiece(px: number, py: number): boolean {
  if (px >= 0 && px < PIECE_SIZE && py >= 0 && py < PIECE_SIZE) return true;
  const dx = px - PIECE_SIZE;
  const dy = py - PIECE_SIZE / 2;
  return dx * dx + dy * dy <= KNOB * KNOB;
}

function onEdge(px: number, py: number): boolean {
  return inPiece(px, py) && (!inPiece(px - 1, py) || !inPiece(px + 1, py) || !inPiece(px, py - 1) || !inPiece(px, py + 1));
}

/** A colourful pattern (waves plus discs) so the hole's place is visible but not trivial to find by colour. */
function drawBackground(): Uint8Array {
  const img = new Uint8Array(WIDTH * HEIGHT * 4);
  const phase = Array.from({ length: 6 }, () => Math.random() * Math.PI * 2);
  const freq = Array.from({ length: 6 }, () => 0.015 + Math.random() * 0.04);
  const discs = Array.from({ length: 14 }, () => ({ x: randomInt(WIDTH), y: randomInt(HEIGHT), r: 6 + randomInt(22), c: [randomInt(256), randomInt(256), randomInt(256)] }));
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const i = (y * WIDTH + x) * 4;
      let r = 128 + 90 * Math.sin(x * freq[0] + phase[0]) + 30 * Math.sin(y * freq[1] + phase[1]);
      let g = 128 + 90 * Math.sin(y * freq[2] + phase[2]) + 30 * Math.sin((x + y) * freq[3] + phase[3]);
      let b = 128 + 90 * Math.sin((x - y) * freq[4] + phase[4]) + 30 * Math.sin(x * freq[5] + phase[5]);
      for (const d of discs) {
        if ((x - d.x) ** 2 + (y - d.y) ** 2 <= d.r * d.r) {
          r = (r + d.c[0]) / 2;
          g = (g + d.c[1]) / 2;
          b = (b + d.c[2]) / 2;
        }
      }
      img[i] = Math.max(0, Math.min(255, r));
      img[i + 1] = Math.max(0, Math.min(255, g));
      img[i + 2] = Math.max(0, Math.min(255, b));
      img[i + 3] = 255;
    }
  }
  return img;
}

export interface Puzzle {
  x: number;
  y: number;
  background: Buffer;
  piece: Buffer;
}

/** Draws a puzzle with its hole at (x, y): the background PNG with the hole shaded, and the piece PNG. */
export function drawPuzzle(x = randomInt(PIECE_WIDTH + 20, WIDTH - PIECE_WIDTH - 5), y = randomInt(5, HEIGHT - PIECE_HEIGHT - 5)): Puzzle {
  const bg = drawBackground();
  const piece = new Uint8Array(PIECE_WIDTH * PIECE_HEIGHT * 4);
  for (let py = 0; py < PIECE_HEIGHT; py++) {
    for (let px = 0; px < PIECE_WIDTH; px++) {
      if (!inPiece(px, py)) continue;
      const src = ((y + py) * WIDTH + (x + px)) * 4;
      const dst = (py * PIECE_WIDTH + px) * 4;
      const edge = onEdge(px, py);
      for (let c = 0; c < 3; c++) {
        piece[dst + c] = edge ? 255 : bg[src + c];
        // The hole: the pixels darkened, its rim lightened.
        bg[src + c] = edge ? 230 : Math.round(bg[src + c] * 0.35);
      }
      piece[dst + 3] = 255;
    }
  }
  return { x, y, background: encodePng(WIDTH, HEIGHT, bg), piece: encodePng(PIECE_WIDTH, PIECE_HEIGHT, piece) };
}

export const hashTicket = (t: string) => createHash('sha256').update(t).digest('hex');

export async function createPuzzle(db: Kysely<KernelTables>, now: Date) {
  await db.deleteFrom('slider_captchas').where('created_at', '<', new Date(now.getTime() - RETENTION_MS)).execute();
  const puzzle = drawPuzzle();
  const id = randomUUID();
  await db.insertInto('slider_captchas').values({ id, x: puzzle.x, created_at: now }).execute();
  return { id, background: pngDataUrl(puzzle.background), piece: pngDataUrl(puzzle.piece), y: puzzle.y, width: WIDTH, height: HEIGHT };
}

/** One answer per puzzle: the first verify call claims it, right or wrong. */
export async function verifyPuzzle(db: Kysely<KernelTables>, id: string, x: number, now: Date): Promise<{ ok: true; ticket: string } | { ok: false; reason: LocalizedText }> {
  const row = await db
    .updateTable('slider_captchas')
    .set({ attempted_at: now })
    .where('id', '=', id)
    .where('attempted_at', 'is', null)
    .returning(['x', 'created_at'])
    .executeTakeFirst();
  if (!row) return { ok: false, reason: { 'zh-CN': '该拼图不存在或已作答，请加载新的拼图', 'en-US': 'This puzzle is unknown or already answered; load a new one' } };
  if (now.getTime() - new Date(row.created_at).getTime() > PUZZLE_VALIDITY_MS) return { ok: false, reason: { 'zh-CN': '该拼图已过期，请加载新的拼图', 'en-US': 'This puzzle has expired; load a new one' } };
  if (Math.abs(row.x - x) > TOLERANCE_PX) return { ok: false, reason: { 'zh-CN': '拼块未对准，请换一张拼图再试', 'en-US': 'The piece is not in place; try a new puzzle' } };
  const ticket = randomBytes(24).toString('base64url');
  await db.updateTable('slider_captchas').set({ ticket_hash: hashTicket(ticket) }).where('id', '=', id).execute();
  return { ok: true, ticket };
}

/** Uses up a ticket; false when it is unknown, used or older than the puzzle validity. */
export async function consumeTicket(db: Kysely<KernelTables>, ticket: string | undefined, now: Date): Promise<boolean> {
  if (!ticket) return false;
  const row = await db
    .updateTable('slider_captchas')
    .set({ ticket_used_at: now })
    .where('ticket_hash', '=', hashTicket(ticket))
    .where('ticket_used_at', 'is', null)
    .returning('created_at')
    .executeTakeFirst();
  return !!row && now.getTime() - new Date(row.created_at).getTime() <= PUZZLE_VALIDITY_MS;
}
