// Database: none
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool, seededRandom } from '@linguaport/sdk/testing';
import { createApertiumAdapter } from '../../server/adapter.js';
import { ApyProcess } from '../../server/apy-process.js';
import { apertiumDefinition, type ApertiumNodeProcess } from '../../server/definition.js';
import { PipelinePool } from '../../server/pipelines.js';

// The warm null-flush pipelines that take documents' batches: the same translation as APy's, tags kept,
// no unknown-word marks, and they come and go with their node. Real Apertium (eng-spa) throughout.
const installed = requireTool('apertium-apy', { files: ['/usr/share/apertium/modes/eng-spa.mode'], debian: 'apertium-apy apertium-eng-spa' });

/** Live members of a process group (zombies do not count), from /proc. */
function groupMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (f[2] === String(pgid) && f[0] !== 'Z') out.push(Number(name));
    } catch {
      // Ended meanwhile.
    }
  }
  return out;
}

const NOUNS = 'house car city water garden book report meeting market price company river school teacher student window door table road child'.split(' ');
const ADJECTIVES = 'red big small new old green quiet busy long short important simple'.split(' ');
const VERBS = 'sees opens closes builds reads writes finds needs wants sells'.split(' ');

/** Report-like paragraphs, some with the markup documents carry and the characters the stream format reserves. */
function sample(seed: number, count: number): { text: string[]; html: string[] } {
  const random = seededRandom(seed);
  const pick = (list: string[]) => list[Math.floor(random() * list.length)]!;
  const sentence = () => `The ${pick(ADJECTIVES)} ${pick(NOUNS)} ${pick(VERBS)} the ${pick(NOUNS)} of the ${pick(NOUNS)}.`;
  const odd = ['Two & three < five [x] ^y$ @z /w \\v {u}.', 'Xyzzy blorf is here.', '3*4 = 12 and #7', 'A b\tc  d.\n\nE f'];
  const text = Array.from({ length: count }, (_, i) => (i % 7 === 3 ? odd[i % odd.length]! : Array.from({ length: 1 + Math.floor(random() * 3) }, sentence).join(' ')));
  const html = Array.from({ length: Math.ceil(count / 2) }, (_, i) => {
    const words = sentence().split(' ');
    return i % 3 === 0
      ? `${words.slice(0, 2).join(' ')} <span data-t="1">${words[2]}</span> ${words.slice(3).join(' ')}`
      : `${words.slice(0, 4).join(' ')} <img data-t="2"> ${words.slice(4).join(' ')} Fish &amp; chips &lt; 5.`;
  });
  return { text, html };
}

describe.skipIf(!installed)('warm null-flush pipelines', () => {
  let apy: ApyProcess;
  const pools: PipelinePool[] = [];
  beforeAll(async () => {
    apy = await ApyProcess.start({ containers: 1, startTimeoutMs: 90_000 });
  }, 120_000);
  afterAll(async () => {
    for (const p of pools) p.stop();
    await apy?.stop();
  });
  const pool = (perPair = 1) => {
    const p = new PipelinePool({ perPair });
    pools.push(p);
    return p;
  };

  it('translates large batches exactly as APy does, inline tags in place (seeded sample, text and html)', async () => {
    const { text, html } = sample(5, 40);
    const viaApy = createApertiumAdapter({ url: apy.url });
    const pipelines = pool(2);
    // Nothing listens at this APy: a batch that reached APy instead of a pipeline would fail.
    const viaPipelines = createApertiumAdapter({ url: 'http://127.0.0.1:9', pipelines });
    for (let i = 0; i < text.length; i += 20) {
      const segments = text.slice(i, i + 20);
      expect(await viaPipelines.translate({ source: 'en', target: 'es', segments, format: 'text' })).toEqual(await viaApy.translate({ source: 'en', target: 'es', segments, format: 'text' }));
    }
    const fromPipelines = await viaPipelines.translate({ source: 'en', target: 'es', segments: html, format: 'html' });
    expect(fromPipelines).toEqual(await viaApy.translate({ source: 'en', target: 'es', segments: html, format: 'html' }));
    expect(fromPipelines[0]).toMatch(/<span data-t="1">[^<]+<\/span>/);
    expect(fromPipelines[1]).toContain('<img data-t="2">');
    expect(pipelines.running().map((p) => p.direction)).toEqual(['en|es']);
  }, 60_000);

  it('adds no unknown-word marks and gives the reserved characters back', async () => {
    const viaPipelines = createApertiumAdapter({ url: 'http://127.0.0.1:9', pipelines: pool(), pipelineFrom: 0 });
    const out = await viaPipelines.translate({ source: 'en', target: 'es', segments: ['Xyzzy blorf is here.', 'Two & three < five [x] ^y$ @z /w \\v {u}.', '3*4 = 12'], format: 'text' });
    expect(out).toEqual(['Xyzzy blorf Es aquí.', 'Dos & tres < cinco [x] ^y$ @z /w \\v {u}.', '3*4 = 12']);
  });

  it('keeps short batches on APy', async () => {
    const pipelines = pool();
    const engine = createApertiumAdapter({ url: apy.url, pipelines });
    expect(await engine.translate({ source: 'en', target: 'es', segments: ['The red car.'], format: 'text' })).toEqual(['El coche rojo.']);
    expect(pipelines.running()).toEqual([]);
  });

  it('sends the batch in flight to APy when its pipeline dies, and starts a new pipeline for the next', async () => {
    const pipelines = pool();
    const engine = createApertiumAdapter({ url: apy.url, pipelines });
    const { text } = sample(9, 60);
    const expected = await createApertiumAdapter({ url: apy.url }).translate({ source: 'en', target: 'es', segments: text, format: 'text' });
    expect(await engine.translate({ source: 'en', target: 'es', segments: text, format: 'text' })).toEqual(expected);
    const [first] = pipelines.running();
    const inFlight = engine.translate({ source: 'en', target: 'es', segments: text, format: 'text' });
    await expect.poll(() => pipelines.running()[0]?.queued, { interval: 1 }).toBe(1);
    process.kill(-first!.pid, 'SIGKILL');
    expect(await inFlight).toEqual(expected);
    await expect.poll(() => groupMembers(first!.pid), { timeout: 10_000 }).toEqual([]);
    // The pool learns of the death from the child's exit event, which a busy process handles a little
    // after the processes are gone; until then a batch may still pick the dead one and go to APy.
    await expect.poll(() => pipelines.running().some((p) => p.pid === first!.pid), { timeout: 10_000 }).toBe(false);
    expect(await engine.translate({ source: 'en', target: 'es', segments: text, format: 'text' })).toEqual(expected);
    const [second] = pipelines.running();
    expect(second!.pid).not.toBe(first!.pid);
  }, 60_000);
});

describe.skipIf(!installed)('an Apertium node', () => {
  it('loses its pipelines with the server that started them, even when it is killed with SIGKILL', async () => {
    const owner = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../support/pipeline-owner.ts', import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: owner.stdout! }).once('line', resolve);
        owner.once('exit', (code) => reject(new Error(`owner exited with ${code}`)));
      });
      const [pipeline] = JSON.parse(line) as { direction: string; pid: number }[];
      expect(pipeline!.direction).toBe('en|es');
      expect(groupMembers(pipeline!.pid).length).toBeGreaterThan(5);
      owner.kill('SIGKILL');
      // Its stdin closes with the server: every stage reads the end of its input and exits.
      await expect.poll(() => groupMembers(pipeline!.pid), { timeout: 15_000 }).toEqual([]);
    } finally {
      owner.kill('SIGKILL');
    }
  }, 60_000);

  it('stops its pipelines with its APy', async () => {
    const definition = apertiumDefinition({ startTimeoutMs: 90_000, warm: false });
    const node = { id: 1, name: 'apertium-local', config: {}, containers: 1 };
    const recorded = new Set<number>();
    const processes = { add: (pid: number) => void recorded.add(pid), remove: (pid: number) => void recorded.delete(pid) };
    let pipeline: { pid: number } | undefined;
    const process = (await definition.supervise!.start(node, { processes, featureUnavailable: () => null, dataDir: '/tmp' })) as ApertiumNodeProcess;
    try {
      const engine = definition.create(node, { timeoutMs: 30_000, process, featureUnavailable: () => null });
      const { text } = sample(3, 30);
      await engine.translate({ source: 'en', target: 'es', segments: text, format: 'text' });
      [pipeline] = process.pipelines.running();
      expect(groupMembers(pipeline!.pid).length).toBeGreaterThan(5);
      expect([...recorded].sort()).toEqual([process.pid, pipeline!.pid].sort());
    } finally {
      await process.stop();
    }
    await expect.poll(() => groupMembers(process.pid).length + groupMembers(pipeline!.pid).length, { timeout: 10_000 }).toBe(0);
    await expect.poll(() => recorded.size, { timeout: 10_000 }).toBe(0);
  }, 120_000);
});
