import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';
import { startWhisperPeer, type WhisperPeer } from '../support/whisper-peer.js';

// Remote speech nodes inside a real kernel: added and started through the engine-management API like
// translation nodes, Spanish speech routed to them by ctx.engines.speech (audio/video translation
// uses it: es -> en by the seeded Apertium), a node that answers 503 failed over and marked unhealthy,
// and every node down answering "service interrupted" as the job's error.

let k: TestKernel;
let admin: string;
let dir: string;
let wav: Buffer;
const peers: WhisperPeer[] = [];
const SCRIPT = ['El gato duerme.', 'La casa es grande.'];

async function upload(): Promise<number> {
  const res = await send();
  expect(res.json().code, res.body).toBe(200);
  return res.json().data.id;
}

async function send() {
  const boundary = '----whisperkernel';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="sourceLanguage"\r\n\r\nes\r\n--${boundary}\r\nContent-Disposition: form-data; name="targetLanguage"\r\n\r\nen\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="habla.wav"\r\nContent-Type: audio/wav\r\n\r\n`),
    wav,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return k.app.inject({ method: 'POST', url: '/api/transVideo/upload', headers: { jwt: admin, cookie: 'locale=en-US', 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
}

async function finished(id: number) {
  let view: any;
  await expect
    .poll(async () => {
      view = (await k.call('GET', `/api/transVideo/get/${id}`, admin)).body.data;
      return view.job.status === 'completed' || view.job.status === 'failed';
    }, { timeout: 60_000, interval: 100 })
    .toBe(true);
  return view as { job: { status: string; error: string | null }; cues: { start: number; end: number; source: string; target: string }[] };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'whisper-kernel-'));
  execFileSync('espeak-ng', ['-v', 'es', '-w', join(dir, 'a.wav'), SCRIPT[0]!]);
  execFileSync('espeak-ng', ['-v', 'es', '-w', join(dir, 'b.wav'), SCRIPT[1]!]);
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', join(dir, 'a.wav'), '-f', 'lavfi', '-i', 'anullsrc=r=22050:cl=mono:d=1', '-i', join(dir, 'b.wav'),
    '-filter_complex', '[0:a][1:a][2:a]concat=n=3:v=0:a=1', '-ar', '16000', '-ac', '1', join(dir, 'habla.wav')]);
  wav = readFileSync(join(dir, 'habla.wav'));
  peers.push(await startWhisperPeer({ script: SCRIPT }), await startWhisperPeer({ script: SCRIPT }));
  k = await startTestKernel({ plugins: ['service', 'engine-whisper', 'trans-video'] });
  admin = await k.login('admin', ADMIN_PASSWORD);
}, 120_000);

afterAll(async () => {
  await k?.shutdown();
  for (const p of peers) await p.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('remote speech nodes in a kernel', () => {
  it('offers the speech kind, adds and starts its nodes, routes Spanish speech to them and fails over', async () => {
    const kinds = (await k.call('GET', '/api/translServiceNode/kinds', admin)).body.data as { kind: string; capability: string; plugin: string }[];
    expect(kinds.find((x) => x.kind === 'whisper')).toMatchObject({ capability: 'speech', plugin: 'engine-whisper' });
    expect(kinds.find((x) => x.kind === 'pocketsphinx-local')).toMatchObject({ capability: 'speech', plugin: 'engine-pocketsphinx' });

    const refused = await k.call('POST', '/api/translServiceNode/add', admin, { kind: 'whisper', containerName: 'no-language', authenticationFile: 'none', config: { baseUrl: peers[0]!.url, languages: [] } });
    expect(refused.body.code).toBe(400);
    const ids: number[] = [];
    for (const [i, peer] of peers.entries()) {
      const added = await k.call('POST', '/api/translServiceNode/add', admin, { kind: 'whisper', containerName: `whisper-${i}`, authenticationFile: 'none', config: { baseUrl: peer.url, model: 'whisper-1', languages: ['es'] } });
      expect(added.body.code, added.body.msg).toBe(200);
      ids.push(added.body.data.id);
      const started = await k.call('GET', `/api/translServiceNode/startTranslationService?id=${added.body.data.id}`, admin);
      expect(started.body.data.health, started.body.msg).toBe('healthy');
    }
    const setup = (await k.call('GET', '/api/transVideo/setup', admin)).body.data;
    expect(setup.languages.map((l: { code: string }) => l.code)).toEqual(['en', 'es']);
    expect(setup.languages.find((l: { code: string }) => l.code === 'es').targets).toContain('en');

    // Spanish speech goes to a whisper node; Apertium translates the lines.
    const first = await finished(await upload());
    expect(first.job.status, first.job.error ?? '').toBe('completed');
    expect(first.cues.map((c) => c.source)).toEqual(SCRIPT);
    expect(first.cues[0]!.target).toMatch(/cat/i);
    expect(first.cues[1]!.start - first.cues[0]!.end).toBeGreaterThan(0.7);
    const sent = peers.flatMap((p) => p.requests);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ language: 'es', responseFormat: 'verbose_json' });

    // The first node answers 503: the job still completes on the other, and the first leaves the rotation.
    peers[0]!.options.misbehave = 'down';
    const before = peers[1]!.requests.length;
    const second = await finished(await upload());
    expect(second.job.status, second.job.error ?? '').toBe('completed');
    expect(peers[1]!.requests.length).toBe(before + 1);
    const health = async (id: number) => (await k.call('GET', `/api/translServiceNode/getTranslationServiceNodeById/${id}`, admin)).body.data.health;
    expect(await health(ids[0]!)).toBe('unhealthy');
    expect(await health(ids[1]!)).toBe('healthy');

    // Every Spanish node down: the job fails with the service-interrupted message.
    peers[1]!.options.misbehave = 'down';
    const res = await send();
    if (res.json().code === 200) {
      const third = await finished(res.json().data.id);
      expect(third.job).toMatchObject({ status: 'failed' });
      expect(third.job.error).toMatch(/no speech recognition node is available/);
    } else {
      // The kernel's health round (every 15 s) found the node down before the upload: then the upload
      // itself is refused, as no running node recognises Spanish any more.
      expect(res.json(), res.body).toMatchObject({ code: 400, msg: 'No speech engine recognises es' });
    }

    // The engines screen lists the speech nodes with their health and languages (not under an engine).
    const listed = (await k.call('GET', '/api/translServiceNode/speechNodes', admin)).body.data as { kind: string; containerName: string; health: string; languages: string[] }[];
    expect(listed.map((n) => [n.kind, n.containerName, n.health, n.languages])).toEqual([
      ['pocketsphinx-local', 'pocketsphinx-local', expect.any(String), ['en']],
      ['whisper', 'whisper-0', 'unhealthy', ['es']],
      ['whisper', 'whisper-1', 'unhealthy', ['es']],
    ]);
  }, 120_000);
});
