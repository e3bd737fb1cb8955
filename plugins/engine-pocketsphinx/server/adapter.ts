import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { EngineError, limitConcurrency, startWarmTool, ToolError, type EngineHealth, type SpeechAdapter, type SpeechSegment, type WarmTool } from '@linguaport/sdk/server';
import { readWavPcm } from '@linguaport/media';

/**
 * Debian's pocketsphinx (`pocketsphinx_continuous` 0.8+5prealpha with `pocketsphinx-en-us`): one
 * process per request, reading the audio's samples from its standard input, its own voice activity
 * detection splitting them into utterances, `-time yes` giving each recognised word with its start,
 * end and posterior. Loading the model takes about 0.3 s, which a live caption cannot spare (a
 * sentence decodes in about 0.5 s), so the next decoder is started as soon as one finishes and waits,
 * model loaded, for its audio (stopped after five idle minutes).
 */

export const POCKETSPHINX = 'pocketsphinx_continuous';
/** Debian's English acoustic model; its language model and dictionary are the decoder's defaults. */
export const POCKETSPHINX_EN_MODEL = '/usr/share/pocketsphinx/model/en-us/en-us';

export interface PocketsphinxOptions {
  /** At least this long per request; longer audio gets twice its length plus 10 s. */
  timeoutMs: number;
  /** Decoders run at once (each takes a core); more requests wait their turn. */
  parallel?: number;
  command?: string;
  model?: string;
}

function onPath(command: string): boolean {
  if (command.includes('/')) return canRead(command, constants.X_OK);
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir && canRead(join(dir, command), constants.X_OK));
}

function canRead(path: string, mode: number = constants.R_OK): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}

/** Seconds of audio in a 16 kHz mono 16-bit WAV (its size over the byte rate; the header is small). */
function secondsOf(wav: Uint8Array): number {
  return Math.max(0, wav.byteLength - 44) / 32_000;
}

/** The samples of a WAV as raw 16-bit little-endian PCM, what the decoder reads from a pipe. */
function rawSamples(wav: Uint8Array): Uint8Array {
  let samples: Int16Array;
  try {
    samples = readWavPcm(wav).samples;
  } catch (err) {
    throw new EngineError('rejected', `pocketsphinx needs a 16-bit PCM WAV: ${(err as Error).message}`, undefined, { cause: err });
  }
  return new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength);
}

const SPARE_IDLE_MS = 5 * 60_000;

/** The decoder's filler and marker tokens, which are no words of the text. */
const FILLER = /^(<s>|<\/s>|<sil>|\[[A-Z_]+\]|\+\+.*\+\+)$/;

/**
 * Utterances of `pocketsphinx_continuous -time yes`: each is a hypothesis line followed by one
 * `word start end posterior` line per token, opened by `<s>` and closed by `</s>`. Alternate
 * pronunciations carry a `(2)` suffix, which is dropped.
 */
export function readPocketsphinxTimes(stdout: string): SpeechSegment[] {
  const out: SpeechSegment[] = [];
  let words: NonNullable<SpeechSegment['words']> = [];
  const close = () => {
    if (words.length) {
      const confidence = words.reduce((sum, w) => sum + (w.confidence ?? 0), 0) / words.length;
      out.push({ start: words[0]!.start, end: words[words.length - 1]!.end, text: words.map((w) => w.text).join(' '), words, confidence: Math.round(confidence * 1000) / 1000 });
    }
    words = [];
  };
  for (const line of stdout.split('\n')) {
    const m = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)$/.exec(line.trim());
    if (!m) continue;
    const token = m[1]!;
    if (token === '<s>' || token === '</s>') {
      close();
      continue;
    }
    if (FILLER.test(token)) continue;
    words.push({ text: token.replace(/\(\d+\)$/, ''), start: Number(m[2]), end: Number(m[3]), confidence: Math.min(1, Number(m[4])) });
  }
  close();
  return out;
}

export function createPocketsphinxAdapter(options: PocketsphinxOptions): SpeechAdapter {
  const command = options.command ?? POCKETSPHINX;
  const model = options.model ?? POCKETSPHINX_EN_MODEL;
  const inTurn = limitConcurrency(options.parallel ?? 1);
  const decoderArgs = ['-infile', '/dev/stdin', '-hmm', model, '-time', 'yes', '-logfn', '/dev/null'];
  let spare: WarmTool | null = null;
  const decoder = () => {
    const ready = spare?.ready ? spare : startWarmTool(command, decoderArgs, { idleMs: SPARE_IDLE_MS });
    spare = null;
    return ready;
  };

  function missing(): string | null {
    if (!onPath(command)) return `${command} is not installed (Debian package pocketsphinx)`;
    if (!canRead(join(model, 'mdef'))) return `the English model ${model} is not installed (Debian package pocketsphinx-en-us)`;
    return null;
  }

  return {
    kind: 'pocketsphinx-local',
    async languages() {
      return ['en'];
    },
    async health(): Promise<EngineHealth> {
      const why = missing();
      return why ? { ok: false, detail: why } : { ok: true };
    },
    async transcribe(wav, { language, signal }) {
      if (language.split('-')[0]!.toLowerCase() !== 'en') throw new EngineError('unsupported-pair', `pocketsphinx here recognises English only, not ${language}`);
      const why = missing();
      if (why) throw new EngineError('unavailable', why);
      const timeoutMs = Math.max(options.timeoutMs, Math.round(secondsOf(wav) * 2000) + 10_000);
      const pcm = rawSamples(wav);
      try {
        return await inTurn(async () => {
          try {
            const { stdout } = await decoder().run(pcm, { timeoutMs, signal });
            return readPocketsphinxTimes(stdout);
          } finally {
            // The next request finds its decoder loaded (started once this one no longer needs the core).
            if (!spare && !missing()) spare = startWarmTool(command, decoderArgs, { idleMs: SPARE_IDLE_MS });
          }
        });
      } catch (err) {
        if (signal?.aborted) throw new EngineError('timeout', 'speech recognition cancelled by the caller', undefined, { cause: err });
        if (err instanceof ToolError && err.exitCode === null && /longer than/.test(err.message)) throw new EngineError('timeout', err.message, undefined, { cause: err });
        if (err instanceof ToolError && err.exitCode === null) throw new EngineError('unavailable', err.message, undefined, { cause: err });
        throw new EngineError('rejected', err instanceof Error ? err.message : String(err), undefined, { cause: err });
      }
    },
  };
}
