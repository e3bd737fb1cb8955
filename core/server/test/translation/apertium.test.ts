import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApertiumAdapter } from '../../src/translation/apertium/adapter.js';
import { ApyProcess, type ApyExit } from '../../src/translation/apertium/apy-process.js';
import { translateText } from '../../src/translation/pipeline.js';

// The real engine: Debian's apertium-apy and pairs (scripts/setup.mjs installs them).
const installed = existsSync('/usr/bin/apertium-apy') && existsSync('/usr/share/apertium/modes/eng-spa.mode');

function listeners(port: number): string {
  return execFileSync('ss', ['-ltnH', `sport = :${port}`], { encoding: 'utf8' });
}

/** Live members of a process group (zombies left for a non-reaping PID 1 do not count). */
function groupAlive(pgid: number): boolean {
  const stats = execFileSync('ps', ['-o', 'stat=', '-g', String(pgid)], { encoding: 'utf8' }).split('\n').filter(Boolean);
  return stats.some((s) => !s.trim().startsWith('Z'));
}

describe.skipIf(!installed)('managed APy and the Apertium adapter', () => {
  let apy: ApyProcess;
  beforeAll(async () => {
    apy = await ApyProcess.start({ containers: 1 });
  });
  afterAll(async () => {
    await apy?.stop();
  });

  it('listens on 127.0.0.1 only', () => {
    const lines = listeners(apy.port).trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`127.0.0.1:${apy.port}`);
  });

  it('lists the installed pairs in platform codes', async () => {
    const pairs = await createApertiumAdapter({ url: apy.url }).languagePairs();
    expect(pairs).toContainEqual({ source: 'en', target: 'es' });
    expect(pairs).toContainEqual({ source: 'es', target: 'en' });
    expect(pairs).toContainEqual({ source: 'en', target: 'ca' });
    expect(pairs).toContainEqual({ source: 'fr', target: 'es' });
  });

  it('reports health with a latency', async () => {
    const health = await createApertiumAdapter({ url: apy.url }).health();
    expect(health.ok).toBe(true);
    expect(health.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('translates a batch in one request, each output the same as translating the segment alone', async () => {
    const engine = createApertiumAdapter({ url: apy.url });
    const segments = ['The red car is fast.', 'Where is the station?', 'My brother lives in a small house.', '', 'Two & three < five'];
    const batch = await engine.translate({ source: 'en', target: 'es', segments, format: 'text' });
    expect(batch).toHaveLength(segments.length);
    expect(batch[0]).toBe('El coche rojo es rápidamente.');
    expect(batch[3]).toBe('');
    expect(batch[4]).toBe('Dos & tres < cinco');
    for (let i = 0; i < segments.length; i++) {
      if (!segments[i]) continue;
      const [alone] = await engine.translate({ source: 'en', target: 'es', segments: [segments[i]], format: 'text' });
      expect(batch[i]).toBe(alone);
    }
  });

  it('keeps inline tags on the words they wrap in html', async () => {
    const engine = createApertiumAdapter({ url: apy.url });
    const [out] = await engine.translate({ source: 'en', target: 'es', segments: ['The <b>red</b> car'], format: 'html' });
    expect(out).toBe('El coche <b>rojo</b>');
    const [entities] = await engine.translate({ source: 'en', target: 'es', segments: ['Two &amp; three &lt; five'], format: 'html' });
    expect(entities).toBe('Dos &amp; tres &lt; cinco');
  });

  it('leaves no unknown-word marks', async () => {
    const [out] = await createApertiumAdapter({ url: apy.url }).translate({ source: 'en', target: 'es', segments: ['Xyzzy blorf is here.'], format: 'text' });
    expect(out).not.toMatch(/[*#]/);
    expect(out).toContain('Xyzzy');
  });

  it('refuses a pair that is not installed', async () => {
    await expect(createApertiumAdapter({ url: apy.url }).translate({ source: 'en', target: 'de', segments: ['Hello'], format: 'text' })).rejects.toMatchObject({
      kind: 'unsupported-pair',
    });
  });

  it('times out when asked to', async () => {
    const engine = createApertiumAdapter({ url: apy.url });
    const controller = new AbortController();
    controller.abort();
    await expect(engine.translate({ source: 'en', target: 'es', segments: ['Hello'], format: 'text' }, controller.signal)).rejects.toMatchObject({
      kind: 'timeout',
    });
  });

  it('runs the whole pipeline over mixed html', async () => {
    const out = await translateText(
      { text: '<p>The <b>red</b> car is fast.</p>\n<p>Where is the station?</p>', source: 'en', target: 'es', format: 'html' },
      { engine: createApertiumAdapter({ url: apy.url }) },
    );
    expect(out.text).toBe('<p>El coche <b>rojo</b> es rápidamente.</p>\n<p>Dónde es la canal?</p>');
  });
});

describe.skipIf(!installed)('APy process lifecycle', () => {
  it('reports a crash through onExit and ends the pipelines the crashed APy left behind', async () => {
    const apy = await ApyProcess.start({ containers: 2, warm: true });
    const exits: ApyExit[] = [];
    apy.onExit((e) => exits.push(e));
    const pgid = apy.pid;
    expect(groupAlive(pgid)).toBe(true);
    process.kill(apy.pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    expect(exits).toHaveLength(1);
    expect(exits[0]).toMatchObject({ expected: false, signal: 'SIGKILL' });
    expect(apy.running).toBe(false);
    expect(groupAlive(pgid)).toBe(false);
    expect((await apy.stop()).expected).toBe(false);
  });

  it('stop() ends APy and its pipelines, and counts as expected', async () => {
    const apy = await ApyProcess.start({ containers: 1 });
    const exits: ApyExit[] = [];
    apy.onExit((e) => exits.push(e));
    const exit = await apy.stop();
    expect(exit.expected).toBe(true);
    expect(exits).toEqual([exit]);
    expect(apy.running).toBe(false);
    await new Promise((r) => setTimeout(r, 200));
    expect(groupAlive(apy.pid)).toBe(false);
  });
});
