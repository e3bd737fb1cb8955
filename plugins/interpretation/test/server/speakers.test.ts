import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';
import { concat, silence, speak, stream, wavFile } from '../speech.js';

// The live session with the voiceprint area beside it: two speakers enrolled in the user's department
// (espeak-ng voices made at test time), then one of them speaks into the live socket; the final caption
// and the session's log name that speaker.

let k: TestKernel;
let base: string;
let user: string;
const en = { cookie: 'locale=en-US' };
// Long enough (about 4.5 s of speech) for a voiceprint to tell who speaks.
const SAID = 'The children are playing in the park with their friends after school today.';
const ANNA = { voice: 'en-us', speed: 120 };
const BORIS = { voice: 'en+f3', speed: 160 };

async function upload(url: string, fields: Record<string, string>, files: Array<{ name: string; content: Buffer }>) {
  const boundary = '----speakerlabels';
  const parts: Buffer[] = [];
  for (const [n, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${f.name}"\r\nContent-Type: audio/wav\r\n\r\n`), f.content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const res = await k.app.inject({ method: 'POST', url, headers: { jwt: user, ...en, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat(parts) });
  return { status: res.statusCode, body: res.json() };
}

const get = async (url: string) => (await k.app.inject({ method: 'GET', url, headers: { jwt: user, ...en } })).json();

beforeAll(async () => {
  k = await startTestKernel({ plugins: ['interpretation', 'voiceprint', 'engine-voiceprint-local'] });
  await k.app.listen({ port: 0, host: '127.0.0.1' });
  base = `ws://127.0.0.1:${(k.app.server.address() as { port: number }).port}/api/interpretation/live`;
  await createUserWithRole(k, 'si-labels', 'Labels-Passw0rd!', 'interpreters with voiceprints', ['interpretation:use', 'interpretation:log', 'voiceprint:use', 'voiceprint:enrol']);
  user = await k.login('si-labels', 'Labels-Passw0rd!');
}, 120_000);
afterAll(async () => {
  await k?.shutdown();
});

describe('speakers in live interpretation', () => {
  it('labels the final caption and the session with the enrolled speaker who spoke', async () => {
    const texts = [
      'The quick brown fox jumps over the lazy dog near the quiet river bank.',
      'Please send the signed contract to our office before the end of the week.',
      'My favourite season is autumn, when the leaves turn red and gold in the park.',
    ];
    for (const [name, who] of [['Anna', ANNA], ['Boris', BORIS]] as const) {
      const files = await Promise.all(texts.map(async (t, i) => ({ name: `${name}-${i}.wav`, content: wavFile(await speak(t, who.voice, who.speed)) })));
      const res = await upload('/api/voiceprint/speaker/enrol', { name }, files);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    await expect
      .poll(async () => {
        const s = (await get('/api/voiceprint/status')).data;
        if (s.status === 'failed') throw new Error(`training failed: ${s.error}`);
        return s.upToDate && s.status === 'idle';
      }, { timeout: 150_000, interval: 500 })
      .toBe(true);

    const socket = new WebSocket(`${base}?token=${encodeURIComponent(user)}&source=en&target=es`, { headers: en });
    const messages: any[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(String(data))));
    await expect.poll(() => messages.find((m) => m.type === 'ready'), { timeout: 30_000 }).toBeTruthy();
    expect(messages.find((m) => m.type === 'ready')).toMatchObject({ speakers: true });
    const audio = concat([silence(0.6), await speak(SAID, ANNA.voice, ANNA.speed), silence(1.5)]);
    await stream((frame) => socket.send(frame), audio, 200);
    try {
      await expect.poll(() => messages.find((m) => m.type === 'final'), { timeout: 60_000 }).toBeTruthy();
      // The words are pocketsphinx's business (the other test checks them); who spoke is the voiceprint's.
      const final = messages.find((m) => m.type === 'final');
      expect(final.text.length).toBeGreaterThan(0);
      expect(final.speaker).toBe('Anna');
      socket.send(JSON.stringify({ type: 'stop' }));
      await expect.poll(() => messages.find((m) => m.type === 'ended'), { timeout: 30_000 }).toBeTruthy();
    } finally {
      socket.terminate();
    }

    const sessions = (await get('/api/interpretation/sessions?pageNum=1&pageSize=10')).data;
    expect(sessions.records[0]).toMatchObject({ speakers: ['Anna'] });
    const detail = (await get(`/api/interpretation/sessions/${sessions.records[0].id}`)).data;
    expect(detail.utterances[0]).toMatchObject({ speaker: 'Anna' });
  }, 300_000);
});
