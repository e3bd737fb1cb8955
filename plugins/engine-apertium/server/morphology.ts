import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Morphology, MorphReading, MorphUnit, MorphWord } from '@linguaport/sdk/server';
import { fromApertiumMode } from './languages.js';
import { NullFlushPipeline } from './pipelines.js';

/**
 * A language's morphology from the installed Apertium pairs (`morphologyService`): the analyser of a
 * pair out of the language (`lt-proc <x>.automorf.bin`, the first stage of `spa-eng.mode`) and the
 * generator of a pair into it (`lt-proc -g <x>.autogen.bin | lt-proc -p <x>.autopgen.bin`, the last
 * stages of `eng-spa.mode`), from the same package where one has both directions, so the tags agree.
 * Each runs as a warm null-flush process (spawning `lt-proc` costs more than its work), started on
 * first use and stopped with the plugin.
 */

const SPECIAL = /[\\[\]^$@/<>{}]/g;
const escape = (text: string) => text.replace(/\0/g, '').replace(SPECIAL, '\\$&');

interface Tools {
  analyser: string;
  generator: string;
  postgen: string | null;
}

/** Finds the files of `language` in the pairs' mode files; null when no installed pair has both. */
export function findTools(modesDir: string, language: string): Tools | null {
  let names: string[] = [];
  try {
    names = readdirSync(modesDir).filter((n) => n.endsWith('.mode'));
  } catch {
    return null;
  }
  const all = names.map((n) => n.slice(0, -5)).filter((n) => !n.includes('_'));
  const reverse = (name: string) => name.split('-').reverse().join('-');
  // Pairs installed both ways first (analyser and generator from one package), then the three-letter
  // (newer) pairs, English's first (the best kept monolingual dictionaries).
  const rank = (name: string) => (all.includes(reverse(name)) ? 0 : 4) + (/^[a-z]{3}-[a-z]{3}$/.test(name) ? 0 : 2) + (name.startsWith('eng-') ? 0 : 1);
  const modes = all
    .map((name) => ({ name, pair: fromApertiumMode(name) }))
    .filter((m) => m.pair)
    .sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
  const read = (name: string) => {
    try {
      return readFileSync(join(modesDir, `${name}.mode`), 'utf8');
    } catch {
      return '';
    }
  };
  const file = (mode: string, re: RegExp) => re.exec(mode)?.[1] ?? null;
  // Into the language: its generator; out of it (the reverse of the same pair first): its analyser.
  for (const into of modes.filter((m) => m.pair!.target === language)) {
    const text = read(into.name);
    const generator = file(text, /lt-proc (?:\$1 |-[a-z] )*'([^']+\.autogen\.bin)'/);
    if (!generator) continue;
    const postgen = file(text, /lt-proc -p '([^']+\.autopgen\.bin)'/);
    const outOf = [modes.find((m) => m.name === reverse(into.name)), ...modes.filter((m) => m.pair!.source === language)];
    for (const m of outOf) {
      if (!m) continue;
      const analyser = file(read(m.name), /^\s*lt-proc (?:-[a-z] )*'([^']+\.automorf\.bin)'/);
      if (analyser) return { analyser, generator, postgen };
    }
  }
  return null;
}

/** `de<pr>+el<det><def><m><sg>` as units. */
export function parseReading(reading: string): MorphReading {
  return reading.split('+').map((part) => {
    const at = part.indexOf('<');
    return { lemma: (at < 0 ? part : part.slice(0, at)).replace(/\\(.)/g, '$1'), tags: [...part.matchAll(/<([^>]+)>/g)].map((m) => m[1]!) };
  });
}

/** The lexical units of an analyser's output: `^surface/reading/reading$`, blanks between. */
function parseAnalysis(text: string, stream: string): MorphWord[] {
  const words: MorphWord[] = [];
  let cursor = 0;
  for (const m of stream.matchAll(/\^((?:\\.|[^$\\])*)\$/g)) {
    const fields = m[1]!.split(/(?<!\\)\//);
    const surface = fields[0]!.replace(/\\(.)/g, '$1');
    const readings = fields.slice(1).filter((r) => !r.startsWith('*')).map(parseReading);
    const start = text.indexOf(surface, cursor);
    if (start < 0) continue;
    cursor = start + surface.length;
    words.push({ surface, start, end: cursor, readings });
  }
  return words;
}

const unit = (u: MorphUnit) => `^${escape(u.lemma)}${u.tags.map((t) => `<${t}>`).join('')}$`;

export class ApertiumMorphology implements Morphology {
  private readonly tools = new Map<string, Tools | null>();
  private readonly running = new Map<string, NullFlushPipeline>();

  constructor(private readonly options: { modesDir?: string; timeoutMs?: number } = {}) {}

  private toolsFor(language: string): Tools | null {
    if (!this.tools.has(language)) this.tools.set(language, findTools(this.options.modesDir ?? '/usr/share/apertium/modes', language));
    return this.tools.get(language)!;
  }

  private process(key: string, command: string): NullFlushPipeline {
    let p = this.running.get(key);
    if (!p || !p.running) {
      p = NullFlushPipeline.start(command);
      this.running.set(key, p);
    }
    return p;
  }

  private async run(key: string, command: string, pieces: string[]): Promise<string[]> {
    if (!pieces.length) return [];
    const out = await this.process(key, command).run(Buffer.from(pieces.map((p) => `${p}\0`).join('')), pieces.length, this.options.timeoutMs ?? 10_000);
    return out.map((b) => b.toString('utf8'));
  }

  async has(language: string): Promise<boolean> {
    return this.toolsFor(language) !== null;
  }

  async analyse(language: string, texts: string[]): Promise<MorphWord[][]> {
    const tools = this.toolsFor(language);
    if (!tools) throw new Error(`no Apertium analyser for ${language}`);
    const flat = texts.map((t) => t.replace(/\s/g, ' '));
    const out = await this.run(`a|${language}`, `lt-proc -z '${tools.analyser}'`, flat.map(escape));
    return out.map((stream, i) => parseAnalysis(flat[i]!, stream));
  }

  async generate(language: string, phrases: MorphUnit[][]): Promise<(string | null)[]> {
    const tools = this.toolsFor(language);
    if (!tools) throw new Error(`no Apertium generator for ${language}`);
    const command = `lt-proc -z -g '${tools.generator}'${tools.postgen ? ` | lt-proc -z -p '${tools.postgen}'` : ''}`;
    // Post-generation contracts a word only when it sees the next one (`~de el` stays, `~de el .` gives `del .`): a full stop follows each phrase.
    const out = await this.run(`g|${language}`, command, phrases.map((p) => `${p.map(unit).join(' ')} .`));
    // `#` marks a form the generator lacks; `~` a contraction post-generation did not take.
    return out.map((s) => (/[#@]/.test(s) ? null : s.trim().replace(/\s*\.$/, '').replace(/~/g, '').replace(/\\(.)/g, '$1').trim()));
  }

  stop(): void {
    for (const p of this.running.values()) p.stop();
    this.running.clear();
  }
}
