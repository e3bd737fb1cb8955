import type { SpeechSegment } from '@linguaport/sdk/server';
import { writeSrt, writeVtt, type SubtitleCue } from '@linguaport/sdk/interchange';
import { formatSeconds, type CueRow, type SubtitleFormat, type Track } from '../shared/schemas.js';

/** A subtitle line stays readable: at most this long on screen and this many characters. */
const MAX_SECONDS = 6;
const MAX_CHARS = 84;

/**
 * Subtitle lines of recognised speech: each segment (an utterance the engine's voice activity
 * detection found) is one line, unless it is too long to read at once; then it is cut at the widest
 * pause between its words (when the engine gave word times), again until every part fits.
 */
export function cuesOf(segments: readonly SpeechSegment[]): { start: number; end: number; text: string }[] {
  const out: { start: number; end: number; text: string }[] = [];
  const fits = (words: NonNullable<SpeechSegment['words']>) =>
    words[words.length - 1]!.end - words[0]!.start <= MAX_SECONDS && words.map((w) => w.text).join(' ').length <= MAX_CHARS;
  const cut = (words: NonNullable<SpeechSegment['words']>) => {
    if (words.length < 2 || fits(words)) {
      out.push({ start: words[0]!.start, end: words[words.length - 1]!.end, text: words.map((w) => w.text).join(' ') });
      return;
    }
    let at = 1;
    let widest = -Infinity;
    for (let i = 1; i < words.length; i++) {
      // The widest pause, preferring cuts near the middle when pauses are alike.
      const gap = words[i]!.start - words[i - 1]!.end - Math.abs(i - words.length / 2) * 0.001;
      if (gap > widest) {
        widest = gap;
        at = i;
      }
    }
    cut(words.slice(0, at));
    cut(words.slice(at));
  };
  for (const s of segments) {
    const text = s.text.trim();
    if (!text) continue;
    const words = (s.words ?? []).filter((w) => w.text.trim() !== '');
    if (words.length > 1 && (s.end - s.start > MAX_SECONDS || text.length > MAX_CHARS)) cut(words);
    else out.push({ start: s.start, end: Math.max(s.start, s.end), text });
  }
  return out;
}

/** The cues of one track: the recognised text, its translation, or both lines. */
export function trackCues(cues: readonly CueRow[], track: Track): SubtitleCue[] {
  return cues.map((c) => ({
    start: c.start,
    end: c.end,
    text: track === 'source' ? c.source : track === 'target' ? c.target : `${c.source}\n${c.target}`,
  }));
}

export function subtitleFile(cues: readonly CueRow[], track: Track, format: SubtitleFormat): string {
  const list = trackCues(cues, track);
  return format === 'srt' ? writeSrt(list) : writeVtt(list);
}

/** A plain-text transcript: each line's time, the recognised text and its translation. */
export function transcript(cues: readonly CueRow[], languages: { source: string; target: string }): string {
  const lines = cues.map((c) => `[${formatSeconds(c.start)} - ${formatSeconds(c.end)}]\n${languages.source}: ${c.source}\n${languages.target}: ${c.target}\n`);
  return lines.join('\n');
}
