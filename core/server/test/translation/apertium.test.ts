// Database: none
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failsNode } from '../../src/translation/adapter.js';
import { createApertiumAdapter, protectTerms } from '../../../../plugins/engine-apertium/server/adapter.js';
import { ApyProcess, type ApyExit } from '../../../../plugins/engine-apertium/server/apy-process.js';
import { processGroupMembers } from '../../src/translation/engine-processes.js';
import { translateText } from '../../src/translation/pipeline.js';
import { pathWithout, prng } from '../support/engine-env.js';
import { requireTool } from '@linguaport/sdk/testing';

// The real engine: Debian's apertium-apy and pairs (scripts/setup.mjs installs them).
const installed = requireTool('apertium-apy', { files: ['/usr/share/apertium/modes/eng-spa.mode'], debian: 'apertium-apy apertium-eng-spa' });

function listeners(port: number): string {
  return execFileSync('ss', ['-ltnH', `sport = :${port}`], { encoding: 'utf8' });
}

/** Live members of a process group (zombies left for a non-reaping PID 1 do not count), from /proc. */
function groupAlive(pgid: number): boolean {
  return processGroupMembers(pgid).length > 0;
}

describe.skipIf(!installed)('managed APy and the Apertium adapter', () => {
  let apy: ApyProcess;
  // Generous: on a loaded machine (2 cores shared) APy can take half a minute to load its pairs.
  beforeAll(async () => {
    apy = await ApyProcess.start({ containers: 1, startTimeoutMs: 90_000 });
  }, 120_000);
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

  it('translates freely around required terms: the term hook puts them in afterwards, with agreement', async () => {
    const terms = [{ source: 'printer', target: 'impresora' }];
    const [free] = await createApertiumAdapter({ url: apy.url }).translate({ source: 'en', target: 'es', segments: ['The printer is new.'], format: 'text', terms });
    expect(free).toBe('La impresora es nueva.');
    // The old placeholder way (kept for the term benchmark): the placeholder breaks agreement.
    const [old] = await createApertiumAdapter({ url: apy.url, protectTerms: true }).translate({ source: 'en', target: 'es', segments: ['The printer is new.'], format: 'text', terms });
    expect(old).toMatch(/^El impresora/);
  });

  it('with protectTerms, puts required terms in as the term base says, in text and html, whatever its dictionaries hold', async () => {
    const engine = createApertiumAdapter({ url: apy.url, protectTerms: true });
    const terms = [{ source: 'gateway', target: 'pasarela' }, { source: 'red car', target: 'bólido' }];
    const [plain, html, none] = await Promise.all([
      engine.translate({ source: 'en', target: 'es', segments: ['The Gateway blocks the red car.', 'Gateways are not a gateway.'], format: 'text', terms }),
      engine.translate({ source: 'en', target: 'es', segments: ['The <b>gateway</b> blocks the house.'], format: 'html', terms }),
      engine.translate({ source: 'en', target: 'es', segments: ['The red car blocks the gateway.'], format: 'text' }),
    ]);
    expect(plain[0]).toMatch(/pasarela/);
    expect(plain[0]).toMatch(/bólido/);
    expect(plain[0]).not.toMatch(/coche/);
    // Whole words only: "Gateways" is another word.
    expect(plain[1]!.match(/pasarela/g)).toHaveLength(1);
    expect(html[0]).toMatch(/<b>pasarela<\/b>/);
    expect(none[0]).toMatch(/coche/);
  });

  it('protects terms case-insensitively, longest first, CJK without word edges', () => {
    const p = protectTerms(['The Red Car and the red carpet.', '我们的防火墙很好'], [{ source: 'red', target: 'rojo' }, { source: 'red car', target: 'bólido' }, { source: '防火墙', target: 'firewall' }]);
    expect(p.segments[0]).not.toMatch(/Red Car/);
    expect(p.restore(p.segments[0]!)).toBe('The bólido and the rojo carpet.');
    expect(p.restore(p.segments[1]!)).toBe('我们的firewall很好');
  });

  it('leaves no unknown-word marks', async () => {
    const [out] = await createApertiumAdapter({ url: apy.url }).translate({ source: 'en', target: 'es', segments: ['Xyzzy blorf is here.'], format: 'text' });
    expect(out).not.toMatch(/[*#]/);
    expect(out).toContain('Xyzzy');
  });

  it('gives the user\'s own asterisks back: only marks the engine added are removed, and it adds none', async () => {
    const engine = createApertiumAdapter({ url: apy.url });
    const run = async (text: string) => (await translateText({ text, source: 'en', target: 'es', format: 'text' }, { engine })).text;
    expect(await run('3*4 = 12')).toBe('3*4 = 12');
    expect(await run('*stars* are bright')).toBe('*Las estrellas* son brillantes');
    expect(await run('a * b')).toBe('Un * b');
    expect(await run('Xyzzy blorf is here.')).toBe('Xyzzy blorf Es aquí.');
  });

  it('round-trips untranslatable text with *, # and @ unchanged (seeded, text and html)', async () => {
    const engine = createApertiumAdapter({ url: apy.url });
    const tokens = ['*', '#', '@', '**', '*zxq*', '#zxq', '@qvw', 'zxq*', '3*4', '=', '12', '*7', 'qvw#', '@@', '#1', '*#@', ' ', ' ', ' '];
    for (const [format, seed] of [['text', 7], ['html', 11]] as const) {
      const r = prng(seed);
      for (let i = 0; i < 120; i++) {
        let text = '';
        for (let k = 1 + Math.floor(r() * 8); k > 0; k--) text += tokens[Math.floor(r() * tokens.length)];
        const out = (await translateText({ text, source: 'en', target: 'es', format }, { engine })).text;
        expect(out, `${format} seed ${seed} case ${i}`).toBe(text);
      }
    }
  }, 120_000);

  it('refuses html as an unsupported format when the machine lacks its tools, without calling APy', async () => {
    const engine = createApertiumAdapter({ url: apy.url, htmlUnavailable: 'tf-extract missing (Debian package transfuse)' });
    await expect(engine.translate({ source: 'en', target: 'es', segments: ['The <b>red</b> car'], format: 'html' })).rejects.toMatchObject({
      kind: 'unsupported-format',
      message: expect.stringContaining('tf-extract'),
    });
    expect(await engine.translate({ source: 'en', target: 'es', segments: ['The red car'], format: 'text' })).toEqual(['El coche rojo']);
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
    const apy = await ApyProcess.start({ containers: 2, warm: true, startTimeoutMs: 90_000 });
    const exits: ApyExit[] = [];
    apy.onExit((e) => exits.push(e));
    const pgid = apy.pid;
    expect(groupAlive(pgid)).toBe(true);
    process.kill(apy.pid, 'SIGKILL');
    await expect.poll(() => exits.length, { timeout: 10_000 }).toBe(1);
    expect(exits[0]).toMatchObject({ expected: false, signal: 'SIGKILL' });
    expect(apy.running).toBe(false);
    await expect.poll(() => groupAlive(pgid), { timeout: 10_000 }).toBe(false);
    expect((await apy.stop()).expected).toBe(false);
  }, 120_000);

  it('stop() ends APy and its pipelines, and counts as expected', async () => {
    const apy = await ApyProcess.start({ containers: 1, startTimeoutMs: 90_000 });
    const exits: ApyExit[] = [];
    apy.onExit((e) => exits.push(e));
    const exit = await apy.stop();
    expect(exit.expected).toBe(true);
    expect(exits).toEqual([exit]);
    expect(apy.running).toBe(false);
    await expect.poll(() => groupAlive(apy.pid), { timeout: 10_000 }).toBe(false);
  }, 120_000);
});

describe.skipIf(!installed)('APy on a machine without transfuse', () => {
  it('answers one html request with a request error (rejected, not unavailable) and the next text request normally', async () => {
    const path = pathWithout(['tf-extract', 'tf-inject']);
    const apy = await ApyProcess.start({ containers: 1, startTimeoutMs: 90_000, env: { ...process.env, PATH: path.dir } });
    try {
      const engine = createApertiumAdapter({ url: apy.url });
      const err = await engine.translate({ source: 'en', target: 'es', segments: ['The <b>red</b> car'], format: 'html' }).catch((e) => e);
      expect(err).toMatchObject({ name: 'EngineError', kind: 'rejected', status: 500 });
      expect(failsNode(err)).toBe(false);
      expect(await engine.translate({ source: 'en', target: 'es', segments: ['The red car'], format: 'text' })).toEqual(['El coche rojo']);
    } finally {
      await apy.stop();
      path.cleanup();
    }
  }, 120_000);
});
