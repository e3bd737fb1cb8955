import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';
import { readWavPcm, writeWavPcm } from '@linguaport/media';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uploadTo, type UploadFile } from '../api.js';
import { ENROL_TEXTS, HELD_OUT_TEXTS, SPEAKERS, speakPcm, speakWav, type SyntheticSpeaker } from '../speech.js';

// The voiceprint area in the real kernel with speech made by espeak-ng at test time: speakers enrolled
// by upload (ffmpeg decodes them), the department's model trained as a task, held-out sentences
// identified, an unenrolled voice left unknown, claims verified, departments kept apart, bad audio refused.

let k: TestKernel;
let user: string;
let outsider: string;
let admin: string;
let nobody: string;
let departmentId: number;
let otherDepartmentId: number;
const en = { cookie: 'locale=en-US' };
const ENROLLED = SPEAKERS.slice(0, 4);
/** A voice no one enrols, unlike each enrolled one in voice, variant and pitch. */
const STRANGER: SyntheticSpeaker = { name: 'Stranger', voice: 'en-us+m4', pitch: 30, speed: 140 };
const ids = new Map<string, number>();

async function call(method: string, url: string, token: string, payload?: unknown) {
  const res = await k.app.inject({ method: method as 'GET', url, headers: { jwt: token, ...en }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: res.json() };
}

const upload = (url: string, token: string, fields: Record<string, string>, files: UploadFile[]) => uploadTo(k, url, { jwt: token, ...en }, fields, files);

const identify = async (wav: Buffer, token = user) => upload('/api/voiceprint/identify', token, {}, [{ field: 'file', name: 'probe.wav', content: wav }]);
const verify = async (speakerId: number, wav: Buffer, token = user) => upload('/api/voiceprint/verify', token, { speakerId: String(speakerId) }, [{ field: 'file', name: 'probe.wav', content: wav }]);

/** Everything the area stores, to show that a refused call changed nothing. */
async function digest() {
  const db = k.database.db;
  const out: Record<string, unknown> = {};
  out.speakers = await db.selectFrom('voiceprint_speakers' as never).select(['id', 'name', 'recordings', 'model_version', 'method'] as never).orderBy('id' as never).execute();
  out.recordings = await db.selectFrom('voiceprint_recordings' as never).select(['id', 'speaker_id', 'speech_seconds'] as never).orderBy('id' as never).execute();
  out.departments = await db.selectFrom('voiceprint_departments' as never).select(['department_id', 'data_version', 'model_version', 'method'] as never).orderBy('department_id' as never).execute();
  return JSON.stringify(out);
}

/** Waits until the department's model is trained on the latest enrolments. */
async function trained(token = user) {
  await expect
    .poll(async () => {
      const s = (await call('GET', '/api/voiceprint/status', token)).body.data;
      if (s.status === 'failed') throw new Error(`training failed: ${s.error}`);
      return s.upToDate && s.status === 'idle';
    }, { timeout: 120_000, interval: 300 })
    .toBe(true);
}

beforeAll(async () => {
  // A consumer of the voiceprint service beside it, as the interpretation log is one.
  // The built-in speaker node does the recognising (ctx.engines.speaker), as in a deployment.
  k = await startTestKernel({ plugins: ['voiceprint', 'engine-voiceprint-local', { id: 'speaker-labels', path: join(import.meta.dirname, '..', 'fixtures', 'speaker-labels') }] });
  const all = ['voiceprint:use', 'voiceprint:enrol', 'voiceprint:delete'];
  departmentId = (await createUserWithRole(k, 'vp-user', 'User-Passw0rd!', 'voiceprint users', all)).departmentId;
  const o = await createUserWithRole(k, 'vp-outsider', 'Outsider-Passw0rd!', 'voiceprint outsiders', all);
  await createUserWithRole(k, 'vp-nobody', 'Nobody-Passw0rd!', 'no voiceprint rights', []);
  const db = k.database.db;
  const other = await db.insertInto('departments').values({ name: 'Other department', code: 'vp-other' }).returning('id').executeTakeFirstOrThrow();
  otherDepartmentId = other.id;
  await db.updateTable('user_department_roles').set({ department_id: other.id }).where('user_id', '=', o.userId).execute();
  user = await k.login('vp-user', 'User-Passw0rd!');
  outsider = await k.login('vp-outsider', 'Outsider-Passw0rd!');
  nobody = await k.login('vp-nobody', 'Nobody-Passw0rd!');
  admin = await k.login('admin', ADMIN_PASSWORD);
}, 180_000);

afterAll(async () => {
  await k?.shutdown();
});

describe('enrolment and recognition', () => {
  it('enrols speakers from uploaded recordings and trains the department model as a task', async () => {
    // Before any speaker, the page already names the method on offer and the threshold its node suggests.
    await expect
      .poll(async () => (await call('GET', '/api/voiceprint/status', user)).body.data, { timeout: 30_000 })
      .toMatchObject({ method: null, currentMethod: 'mfcc-gmm-ubm/1', threshold: 1.2 });
    for (const s of ENROLLED) {
      const files = await Promise.all(ENROL_TEXTS.slice(0, 2).map(async (text, i) => ({ name: `${s.name}-${i}.wav`, content: await speakWav(s, text) })));
      const res = await upload('/api/voiceprint/speaker/enrol', user, { name: s.name }, files);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toMatchObject({ name: s.name, recordings: 2 });
      expect(res.body.data.speechSeconds).toBeGreaterThan(3);
      ids.set(s.name, res.body.data.id);
    }
    // A third recording for one of them, added later.
    const more = await upload('/api/voiceprint/speaker/recording/add', user, { speakerId: String(ids.get('Alice')) }, [{ name: 'alice-2.wav', content: await speakWav(ENROLLED[0]!, ENROL_TEXTS[2]!) }]);
    expect(more.status, JSON.stringify(more.body)).toBe(200);
    expect(more.body.data.recordings).toBe(3);
    await trained();
    const list = (await call('GET', '/api/voiceprint/speaker/list?pageSize=50', user)).body.data;
    expect(list.total).toBe(4);
    expect(list.records.every((r: { ready: boolean; state: string; method: string }) => r.ready && r.state === 'ready' && r.method === 'mfcc-gmm-ubm/1')).toBe(true);
    // Recordings are kept as 16 kHz mono 16-bit WAV, what the speaker engines take.
    const kept = await k.database.db.selectFrom('voiceprint_recordings' as never).select(['audio', 'features'] as never).execute() as Array<{ audio: Uint8Array; features: Uint8Array | null }>;
    expect(kept).toHaveLength(9);
    for (const r of kept) {
      const wav = readWavPcm(new Uint8Array(r.audio));
      expect([wav.sampleRate, wav.channels]).toEqual([16000, 1]);
      expect(r.features).toBeNull();
    }
    const status = (await call('GET', '/api/voiceprint/status', user)).body.data;
    expect(status).toMatchObject({ method: 'mfcc-gmm-ubm/1', currentMethod: 'mfcc-gmm-ubm/1', methodReady: true, threshold: 1.2 });
    expect((await call('GET', '/api/voiceprint/speaker/list?name=ali', user)).body.data.records.map((r: { name: string }) => r.name)).toEqual(['Alice']);
    const paged = (await call('GET', '/api/voiceprint/speaker/list?pageNum=2&pageSize=3', user)).body.data;
    expect(paged.records).toHaveLength(1);
  }, 240_000);

  it('refuses a second speaker of the same name in the department (409)', async () => {
    const res = await upload('/api/voiceprint/speaker/enrol', user, { name: 'alice' }, [{ name: 'a.wav', content: await speakWav(ENROLLED[1]!, ENROL_TEXTS[0]!) }]);
    expect(res.status).toBe(409);
    expect(res.body.msg).toContain('already exists');
  });

  it('identifies held-out utterances of every enrolled speaker, best score first', async () => {
    for (const s of ENROLLED) {
      for (const text of HELD_OUT_TEXTS.slice(0, 2)) {
        const res = await identify(await speakWav(s, text));
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const data = res.body.data;
        expect(data.speaker?.name, `${s.name}: ${JSON.stringify(data.candidates)}`).toBe(s.name);
        // The local method's threshold, as its engine suggests it.
        expect(data).toMatchObject({ method: 'mfcc-gmm-ubm/1', threshold: 1.2 });
        expect(data.candidates).toHaveLength(4);
        expect(data.candidates[0].score).toBeGreaterThanOrEqual(data.threshold);
        expect(data.candidates[1].score).toBeLessThan(data.candidates[0].score);
      }
    }
  }, 120_000);

  it('answers unknown for a voice that is not enrolled, its best score under the threshold', async () => {
    const res = await identify(await speakWav(STRANGER, HELD_OUT_TEXTS[2]!));
    expect(res.status).toBe(200);
    expect(res.body.data.speaker, JSON.stringify(res.body.data.candidates)).toBeNull();
    expect(res.body.data.candidates[0].score).toBeLessThan(res.body.data.threshold);
  });

  it('verifies a claim: the speaker accepted, another speaker claiming to be them rejected', async () => {
    const alice = ids.get('Alice')!;
    const own = await verify(alice, await speakWav(ENROLLED[0]!, HELD_OUT_TEXTS[3]!));
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.data).toMatchObject({ speakerId: alice, name: 'Alice', accepted: true, method: 'mfcc-gmm-ubm/1', threshold: 1.2 });
    for (const impostor of [ENROLLED[1]!, ENROLLED[2]!, STRANGER]) {
      const res = await verify(alice, await speakWav(impostor, HELD_OUT_TEXTS[3]!));
      expect(res.body.data.accepted, `${impostor.name} as Alice: ${res.body.data.score}`).toBe(false);
      expect(res.body.data.score).toBeLessThan(own.body.data.score);
    }
  });
});

describe('the voiceprint.speakers service', () => {
  it("labels samples with the department's speaker for another plugin, and says when a department has none", async () => {
    const pcm = await speakPcm(ENROLLED[2]!, HELD_OUT_TEXTS[3]!);
    const pcm16 = Buffer.from(Int16Array.from(pcm, (x) => Math.round(x * 32767)).buffer).toString('base64');
    const res = await call('POST', '/api/speakerLabels/label', user, { departmentId, pcm16 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ label: 'Carol', enrolled: true });
    const elsewhere = await call('POST', '/api/speakerLabels/label', user, { departmentId: otherDepartmentId, pcm16 });
    expect(elsewhere.body.data).toEqual({ label: null, enrolled: false });
    const silent = await call('POST', '/api/speakerLabels/label', user, { departmentId, pcm16: Buffer.alloc(32000).toString('base64') });
    expect(silent.status).toBe(400);
    expect(silent.body.msg).toContain('Too little speech');
  });
});

describe('departments and permissions', () => {
  it("keeps another department's user away from the speakers (404) and a user without keys out (403); nothing changes", async () => {
    const before = await digest();
    const alice = ids.get('Alice')!;
    const wav = await speakWav(ENROLLED[0]!, HELD_OUT_TEXTS[0]!);
    expect((await call('GET', '/api/voiceprint/speaker/list', outsider)).body.data.total).toBe(0);
    for (const [method, url] of [['GET', `/api/voiceprint/speaker/detail?id=${alice}`], ['DELETE', `/api/voiceprint/speaker/delete?id=${alice}`]] as const) {
      const res = await call(method, url, outsider);
      expect(res.status, url).toBe(404);
      expect(res.body.msg).toBe(`Speaker ${alice} not found`);
      expect((await call(method, url, nobody)).status).toBe(403);
    }
    expect((await verify(alice, wav, outsider)).status).toBe(404);
    expect((await upload('/api/voiceprint/speaker/recording/add', outsider, { speakerId: String(alice) }, [{ name: 'x.wav', content: wav }])).status).toBe(404);
    // Its own department has no speakers: nothing to identify against.
    const none = await identify(wav, outsider);
    expect(none.status).toBe(409);
    expect((await identify(wav, nobody)).status).toBe(403);
    expect(await digest()).toBe(before);
    // The administrator reaches every department.
    expect((await call('GET', `/api/voiceprint/speaker/detail?id=${alice}`, admin)).body.data.recordingList).toHaveLength(3);
  });

  it('refuses bad audio with 400 and stores nothing', async () => {
    const before = await digest();
    const good = await speakWav(SPEAKERS[5]!, ENROL_TEXTS[0]!);
    const silence = Buffer.from(writeWavPcm(new Int16Array(3 * 16_000)));
    const cases: Array<[string, Array<{ name: string; content: Buffer }>, RegExp]> = [
      ['text as audio', [{ name: 'notes.wav', content: Buffer.from('these are not sounds at all\n') }], /not a supported format/],
      ['silence', [{ name: 'silence.wav', content: silence }], /too little speech/],
      ['one bad file among good ones', [{ name: 'good.wav', content: good }, { name: 'bad.mp3', content: Buffer.from('ID3 nothing') }], /bad\.mp3/],
      ['an empty file', [{ name: 'empty.wav', content: Buffer.alloc(0) }], /empty file/],
    ];
    for (const [what, files, message] of cases) {
      const res = await upload('/api/voiceprint/speaker/enrol', user, { name: 'Frank' }, files);
      expect(res.status, what).toBe(400);
      expect(res.body.msg, what).toMatch(message);
    }
    expect((await upload('/api/voiceprint/speaker/enrol', user, { name: '  ' }, [{ name: 'good.wav', content: good }])).status).toBe(400);
    const probe = await identify(Buffer.from('not audio'));
    expect(probe.status).toBe(400);
    const zh = await k.app.inject({ method: 'GET', url: '/api/voiceprint/speaker/detail?id=999999', headers: { jwt: user, cookie: 'locale=zh-CN' } });
    expect(zh.json().msg).toBe('说话人 999999 不存在');
    expect(await digest()).toBe(before);
  }, 60_000);

  it('refuses playlists and lists of other files at enrol, recording add, identify and verify (400 in both languages), storing nothing', async () => {
    // ffmpeg would follow them to the local file they name (someone's recording, by its path).
    const dir = mkdtempSync(join(tmpdir(), 'voiceprint-playlist-'));
    try {
      writeFileSync(join(dir, 'secret.wav'), await speakWav(ENROLLED[0]!, ENROL_TEXTS[0]!));
      execFileSync('ffmpeg', ['-v', 'error', '-i', join(dir, 'secret.wav'), join(dir, 'secret.mp3')]);
      const hls = Buffer.from(`#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.0,\n${join(dir, 'secret.mp3')}\n#EXT-X-ENDLIST\n`);
      const ffconcat = Buffer.from(`ffconcat version 1.0\nfile ${join(dir, 'secret.mp3')}\n`);
      const before = await digest();
      const alice = String(ids.get('Alice'));
      for (const [name, content] of [['playlist.m3u8', hls], ['voice.mp3', hls], ['list.wav', ffconcat]] as const) {
        const calls: Array<[string, Record<string, string>, string]> = [
          ['/api/voiceprint/speaker/enrol', { name: 'Mallory' }, 'files'],
          ['/api/voiceprint/speaker/recording/add', { speakerId: alice }, 'files'],
          ['/api/voiceprint/identify', {}, 'file'],
          ['/api/voiceprint/verify', { speakerId: alice }, 'file'],
        ];
        for (const [url, fields, field] of calls) {
          const res = await upload(url, user, fields, [{ field, name, content }]);
          expect(res.status, `${url} ${name}: ${JSON.stringify(res.body)}`).toBe(400);
          expect(res.body.msg).toBe(`${name}: playlists (HLS, DASH) and lists that point to other files are not accepted; upload the audio or video file itself`);
        }
        const zh = await uploadTo(k, '/api/voiceprint/identify', { jwt: user, cookie: 'locale=zh-CN' }, {}, [{ field: 'file', name, content }]);
        expect(zh.body.msg).toBe(`${name}：不接受播放列表（如 HLS、DASH）或引用其他文件的列表，请上传音视频文件本身`);
      }
      expect(await digest()).toBe(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('deletes a speaker, retrains, and identification no longer names them', async () => {
    const dave = ids.get('Dave')!;
    expect((await call('DELETE', `/api/voiceprint/speaker/delete?id=${dave}`, user)).status).toBe(200);
    expect((await call('GET', `/api/voiceprint/speaker/detail?id=${dave}`, user)).status).toBe(404);
    await trained();
    const res = await identify(await speakWav(ENROLLED[3]!, HELD_OUT_TEXTS[0]!));
    expect(res.body.data.candidates.map((c: { name: string }) => c.name)).not.toContain('Dave');
    const bob = await identify(await speakWav(ENROLLED[1]!, HELD_OUT_TEXTS[1]!));
    expect(bob.body.data.speaker?.name).toBe('Bob');
  }, 120_000);
});
