import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { ADMIN_PASSWORD, createUserWithRole, openTestDatabase, startTestKernel, startVectorPeer, type TestKernel, type VectorPeer } from '@linguaport/sdk/testing';
import { adaptMeans, floatBytes, gmmFromBytes, gmmToBytes, joinFrames, trainUbm, voiceFeatures } from '@linguaport/speaker-model';
import { legacyBackground, LEGACY_METHOD, voiceprintMigrations } from '../../server/tables.js';
import { uploadTo } from '../api.js';
import { ENROL_TEXTS, HELD_OUT_TEXTS, SPEAKERS, speakPcm, speakWav } from '../speech.js';

// The voiceprint area over the speaker nodes the platform runs (ctx.engines.speaker): a speaker enrolled
// before recordings were kept as audio keeps working with the local method; when the administrator stops
// the built-in node and starts a PaddleSpeech vector node (a protocol-faithful peer on 127.0.0.1), the
// department is retrained with the embedding method from the recordings kept as audio; with no speaker
// node up, identification answers 503 in both languages and nothing changes.

const EMBEDDING = 'embedding/paddlespeech/ecapatdnn_voxceleb12';
const [ALICE, BOB, CAROL, DAVE] = SPEAKERS as [(typeof SPEAKERS)[number], (typeof SPEAKERS)[number], (typeof SPEAKERS)[number], (typeof SPEAKERS)[number]];

let k: TestKernel;
let peer: VectorPeer;
let user: string;
let admin: string;
let departmentId: number;
let localNode: number;
let embeddingNode: number;
const ids = new Map<string, number>();
const en = { cookie: 'locale=en-US' };
const zh = { cookie: 'locale=zh-CN' };

const call = async (method: string, url: string, token = user) => {
  const res = await k.app.inject({ method: method as 'GET', url, headers: { jwt: token, ...en } });
  return { status: res.statusCode, body: res.json() };
};
const identify = async (wav: Buffer, locale = en) => uploadTo(k, '/api/voiceprint/identify', { jwt: user, ...locale }, {}, [{ field: 'file', name: 'probe.wav', content: wav }]);
const enrol = async (s: (typeof SPEAKERS)[number], texts: string[]) =>
  uploadTo(k, '/api/voiceprint/speaker/enrol', { jwt: user, ...en }, { name: s.name }, await Promise.all(texts.map(async (t, i) => ({ name: `${s.name}-${i}.wav`, content: await speakWav(s, t) }))));
const speakers = async () => (await call('GET', '/api/voiceprint/speaker/list?pageSize=50')).body.data.records as Array<{ id: number; name: string; state: string; method: string | null; ready: boolean }>;
const stateOf = async (name: string) => (await speakers()).find((s) => s.name === name)!;
const models = async () => {
  const rows = (await k.database.db.selectFrom('voiceprint_speakers' as never).select(['id', 'name', 'model', 'method'] as never).orderBy('id' as never).execute()) as Array<{ name: string; model: Uint8Array | null; method: string | null }>;
  return new Map(rows.map((r) => [r.name, { model: r.model ? Buffer.from(r.model).toString('base64') : null, bytes: r.model?.byteLength ?? 0, method: r.method }]));
};
const department = async () =>
  (await k.database.db.selectFrom('voiceprint_departments' as never).selectAll().where('department_id' as never, '=', departmentId as never).executeTakeFirstOrThrow()) as { method: string | null; background: Uint8Array | null; model_version: number };

/** Waits until the department's models are of its latest enrolments, under a method a node offers. */
async function trained() {
  await expect
    .poll(async () => {
      const s = (await call('GET', '/api/voiceprint/status')).body.data;
      if (s.status === 'failed') throw new Error(`training failed: ${s.error}`);
      return s.upToDate && s.status === 'idle';
    }, { timeout: 120_000, interval: 300 })
    .toBe(true);
}

async function node(action: 'start' | 'stop', id: number) {
  const res = await call('GET', `/api/translServiceNode/${action}TranslationService?id=${id}`, admin);
  expect(res.body.code, res.body.msg).toBe(200);
}

beforeAll(async () => {
  peer = await startVectorPeer();
  k = await startTestKernel({ plugins: ['voiceprint', 'engine-voiceprint-local', 'engine-speaker-embedding', 'service'] });
  departmentId = (await createUserWithRole(k, 'vp-engines', 'Engines-Passw0rd!', 'voiceprint engines', ['voiceprint:use', 'voiceprint:enrol'])).departmentId;
  user = await k.login('vp-engines', 'Engines-Passw0rd!');
  admin = await k.login('admin', ADMIN_PASSWORD);
  localNode = (await k.database.db.selectFrom('engine_nodes').select('id').where('kind', '=', 'voiceprint-local').executeTakeFirstOrThrow()).id as number;
}, 180_000);

afterAll(async () => {
  await k?.shutdown();
  await peer?.close();
});

describe('voiceprints over the speaker nodes', () => {
  it('keeps a speaker enrolled before recordings were kept as audio working while the method stays the local one', async () => {
    for (const s of [ALICE, BOB]) {
      const res = await enrol(s, ENROL_TEXTS.slice(0, 2));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      ids.set(s.name, res.body.data.id);
    }
    await trained();
    // Carol as 001 left her: MFCC features of her recordings and means adapted to the department's
    // background model, no audio (the way the plugin made them before the engines).
    const dept = await department();
    expect(dept.method).toBe(LEGACY_METHOD);
    const bg = new Uint8Array(dept.background!);
    const view = new DataView(bg.buffer, bg.byteOffset, 8);
    const ubm = gmmFromBytes(bg.subarray(8), view.getUint32(0, true), view.getUint32(4, true));
    expect(Buffer.from(legacyBackground(bg.subarray(8), ubm.components, ubm.dims))).toEqual(Buffer.from(bg));
    const features = await Promise.all(ENROL_TEXTS.slice(0, 2).map(async (t) => voiceFeatures(await speakPcm(CAROL, t))));
    const db = k.database.db;
    const carol = (await db
      .insertInto('voiceprint_speakers' as never)
      .values({ department_id: departmentId, name: CAROL.name, model: Buffer.from(floatBytes(adaptMeans(ubm, joinFrames(features)))), method: LEGACY_METHOD, model_version: dept.model_version, recordings: 2, speech_seconds: 8, created_by: 1 } as never)
      .returning('id' as never)
      .executeTakeFirstOrThrow()) as { id: number };
    for (const f of features) {
      await db.insertInto('voiceprint_recordings' as never).values({ speaker_id: carol.id, filename: 'carol-001.wav', audio: null, features: Buffer.from(floatBytes(f.data)), frames: f.frames, dims: f.dims, speech_seconds: f.speechSeconds, created_by: 1 } as never).execute();
    }
    ids.set(CAROL.name, carol.id);
    expect(await stateOf(CAROL.name)).toMatchObject({ state: 'ready', method: LEGACY_METHOD });
    const found = await identify(await speakWav(CAROL, HELD_OUT_TEXTS[0]!));
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body.data).toMatchObject({ speaker: { name: CAROL.name }, method: LEGACY_METHOD, threshold: 1.2 });

    // A new speaker: the department trains again, keeping its background model so that Carol stays valid.
    const dave = await enrol(DAVE, ENROL_TEXTS.slice(0, 2));
    expect(dave.status, JSON.stringify(dave.body)).toBe(200);
    ids.set(DAVE.name, dave.body.data.id);
    await trained();
    const after = await department();
    expect(after.model_version).toBeGreaterThan(dept.model_version);
    expect(Buffer.from(after.background!)).toEqual(Buffer.from(bg));
    expect((await speakers()).map((s) => [s.name, s.state]).sort()).toEqual([['Alice', 'ready'], ['Bob', 'ready'], ['Carol', 'ready'], ['Dave', 'ready']]);
    for (const s of [CAROL, DAVE, ALICE]) expect((await identify(await speakWav(s, HELD_OUT_TEXTS[1]!))).body.data.speaker?.name).toBe(s.name);
    const detail = (await call('GET', `/api/voiceprint/speaker/detail?id=${carol.id}`)).body.data;
    expect(detail.recordingList.map((r: { audio: boolean }) => r.audio)).toEqual([false, false]);
  }, 300_000);

  it('retrains the department with the embedding method when the local node stops and a vector node runs', async () => {
    const before = await models();
    const added = await call('GET', '/api/translServiceNode/kinds', admin);
    expect(added.body.data.some((x: { kind: string }) => x.kind === 'paddlespeech-vector')).toBe(true);
    const res = await k.app.inject({
      method: 'POST',
      url: '/api/translServiceNode/add',
      headers: { jwt: admin },
      payload: { kind: 'paddlespeech-vector', containerName: 'gpu-speakers', authenticationFile: 'none', config: { baseUrl: peer.url, threshold: 0.97 } },
    });
    expect(res.json().code, res.json().msg).toBe(200);
    embeddingNode = res.json().data.id;
    await node('start', embeddingNode);
    await node('stop', localNode);

    // The first call finds the local method gone: the department retrains, the call is told so.
    const during = await identify(await speakWav(ALICE, HELD_OUT_TEXTS[2]!), zh);
    expect(during.status).toBe(503);
    expect(during.body.msg).toContain('重新训练');
    await trained();
    const status = (await call('GET', '/api/voiceprint/status')).body.data;
    expect(status).toMatchObject({ method: EMBEDDING, currentMethod: EMBEDDING, methodReady: true, threshold: 0.97 });

    // Every speaker with recordings kept as audio was enrolled again by the vector node (40-value embeddings).
    const after = await models();
    for (const name of [ALICE.name, BOB.name, DAVE.name]) {
      expect(after.get(name)!.method).toBe(EMBEDDING);
      expect(after.get(name)!.bytes).toBe(40 * 4);
      expect(after.get(name)!.model).not.toBe(before.get(name)!.model);
    }
    // Carol has only features: she keeps them and is shown as needing a new recording.
    expect(after.get(CAROL.name)).toMatchObject({ method: LEGACY_METHOD });
    expect(await stateOf(CAROL.name)).toMatchObject({ state: 'needsRecording', ready: false });
    const embedded = peer.requests;
    expect(embedded).toBeGreaterThanOrEqual(6);

    for (const s of [ALICE, BOB, DAVE]) {
      const res = await identify(await speakWav(s, HELD_OUT_TEXTS[2]!));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data, JSON.stringify(res.body.data.candidates)).toMatchObject({ speaker: { name: s.name }, method: EMBEDDING, threshold: 0.97 });
      expect(res.body.data.candidates.map((c: { name: string }) => c.name).sort()).toEqual(['Alice', 'Bob', 'Dave']);
    }
    expect(peer.requests).toBe(embedded + 3);

    // A new recording for Carol: she is enrolled with the embedding method and identified again.
    const more = await uploadTo(k, '/api/voiceprint/speaker/recording/add', { jwt: user, ...en }, { speakerId: String(ids.get(CAROL.name)) }, [{ name: 'carol-new.wav', content: await speakWav(CAROL, ENROL_TEXTS[2]!) }]);
    expect(more.status, JSON.stringify(more.body)).toBe(200);
    await trained();
    expect(await stateOf(CAROL.name)).toMatchObject({ state: 'ready', method: EMBEDDING });
    expect((await identify(await speakWav(CAROL, HELD_OUT_TEXTS[3]!))).body.data.speaker?.name).toBe(CAROL.name);
  }, 300_000);

  it('answers 503 in both languages when no speaker node is up, changing nothing; a training meanwhile fails saying why in the reader\'s language', async () => {
    await node('stop', embeddingNode);
    const digest = async () => JSON.stringify({ models: [...(await models())], department: await department() });
    const before = await digest();
    const wav = await speakWav(BOB, HELD_OUT_TEXTS[0]!);
    const english = await identify(wav);
    expect(english.status).toBe(503);
    expect(english.body.msg).toBe('Service interrupted: no speaker recognition node is running. Start one on the engines screen.');
    const chinese = await identify(wav, zh);
    expect(chinese.status).toBe(503);
    expect(chinese.body.msg).toBe('服务中断：没有正在运行的说话人识别节点，请在引擎管理中启动一个');
    const verify = await uploadTo(k, '/api/voiceprint/verify', { jwt: user, ...en }, { speakerId: String(ids.get(BOB.name)) }, [{ field: 'file', name: 'probe.wav', content: wav }]);
    expect(verify.status).toBe(503);
    expect((await call('GET', '/api/voiceprint/status')).body.data).toMatchObject({ method: EMBEDDING, currentMethod: null, methodReady: false, status: 'idle' });
    expect((await speakers()).every((s) => s.state === 'training' && !s.ready)).toBe(true);
    expect(await digest()).toBe(before);

    // An enrolment is kept; its training fails, saying why in the reader's language.
    const erin = await enrol(SPEAKERS[4]!, ENROL_TEXTS.slice(0, 1));
    expect(erin.status, JSON.stringify(erin.body)).toBe(200);
    await expect.poll(async () => (await call('GET', '/api/voiceprint/status')).body.data.status, { timeout: 60_000, interval: 300 }).toBe('failed');
    expect((await call('GET', '/api/voiceprint/status')).body.data.error).toBe('Service interrupted: no speaker recognition node is running. Start one on the engines screen.');
    const inChinese = await k.app.inject({ method: 'GET', url: '/api/voiceprint/status', headers: { jwt: user, ...zh } });
    expect(inChinese.json().data.error).toBe('服务中断：没有正在运行的说话人识别节点，请在引擎管理中启动一个');
  }, 120_000);
});

describe('migration 002', () => {
  it("turns 001's models into the local method's bytes and keeps features-only recordings", async () => {
    const t = await openTestDatabase();
    try {
      const db = t.database.db as Kysely<any>;
      await voiceprintMigrations[0]!.up(db);
      const features = voiceFeatures(await speakPcm(ALICE, ENROL_TEXTS[0]!));
      const ubm = trainUbm(features, { components: 4, seed: 1 });
      const means = floatBytes(adaptMeans(ubm, features));
      await db.insertInto('voiceprint_departments').values({ department_id: 7, ubm: Buffer.from(gmmToBytes(ubm)), components: ubm.components, dims: ubm.dims, model_version: 3, data_version: 2, trained_version: 2 }).execute();
      const sp = await db.insertInto('voiceprint_speakers').values({ department_id: 7, name: 'Alice', model: Buffer.from(means), model_version: 3, recordings: 1, speech_seconds: 4, created_by: 1 }).returning('id').executeTakeFirstOrThrow();
      await db.insertInto('voiceprint_recordings').values({ speaker_id: sp.id, filename: 'a.wav', features: Buffer.from(floatBytes(features.data)), frames: features.frames, dims: features.dims, speech_seconds: 4, created_by: 1 }).execute();
      await voiceprintMigrations[1]!.up(db);
      const dept = await db.selectFrom('voiceprint_departments').selectAll().executeTakeFirstOrThrow();
      expect(dept).toMatchObject({ method: LEGACY_METHOD, model_version: 3, threshold: null });
      expect(dept.ubm).toBeUndefined();
      const bg = new Uint8Array(dept.background);
      const view = new DataView(bg.buffer, bg.byteOffset, 8);
      expect([view.getUint32(0, true), view.getUint32(4, true)]).toEqual([ubm.components, ubm.dims]);
      expect(Array.from(gmmFromBytes(bg.subarray(8), ubm.components, ubm.dims).means)).toEqual(Array.from(Float32Array.from(ubm.means)));
      expect(await db.selectFrom('voiceprint_speakers').select(['method', 'model_version']).executeTakeFirstOrThrow()).toEqual({ method: LEGACY_METHOD, model_version: 3 });
      const rec = await db.selectFrom('voiceprint_recordings').select(['audio', 'frames']).executeTakeFirstOrThrow();
      expect(rec).toEqual({ audio: null, frames: features.frames });
    } finally {
      await t.cleanup();
    }
  }, 60_000);
});
