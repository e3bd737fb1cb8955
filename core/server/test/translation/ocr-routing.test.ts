import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textPicture } from '@linguaport/sdk/testing';
import { runMigrations } from '../../src/db/migrations.js';
import { translationMigrations } from '../../src/translation/migrations.js';
import { createAdapterRegistry } from '../../src/translation/adapters.js';
import { createTranslationService, type TranslationService } from '../../src/translation/service.js';
import { createTesseractAdapter } from '@linguaport/ocr';
import { tesseractDefinition } from '../../../../plugins/engine-tesseract/server/definition.js';
import { paddleOcrDefinition } from '../../../../plugins/engine-paddleocr/server/adapter.js';
import { startPaddlePeer, type PaddlePeer } from '../../../../plugins/engine-paddleocr/test/support/paddle-peer.js';
import { openTestDatabase, type TestDatabase } from '../support/test-database.js';

// OCR routing (ctx.engines.ocr) over real engines: the local tesseract node and two remote PaddleOCR
// nodes (PaddleHub Serving peers on 127.0.0.1 that read with tesseract behind the protocol), their
// kinds registered as their plugins register them. The same router serves speech (speech.test.ts).

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const picture = (text: string) => new Uint8Array(textPicture({ width: 520, height: 140, lines: [{ text, x: 30, y: 40 }] }));

describe('OCR routing', () => {
  let t: TestDatabase;
  let service: TranslationService | null = null;
  const peers: PaddlePeer[] = [];
  const ids: Record<string, number> = {};
  /** A language the remote nodes are offered for and this machine's tesseract does not read. */
  let only = '';

  beforeAll(async () => {
    t = await openTestDatabase();
    await runMigrations(t.database, 'core.translation', translationMigrations);
    const local = await createTesseractAdapter({ timeoutMs: 30_000 }).languages();
    only = ['ja', 'ko', 'ar', 'ru', 'th'].find((l) => !local.includes(l))!;
    peers.push(await startPaddlePeer(), await startPaddlePeer());
    const add = async (name: string, kind: string, config: object, languages: string[]) => {
      const row = await t.database.db.insertInto('engine_nodes').values({ kind, container_name: name, ip: '127.0.0.1', desired_state: 'running', config: JSON.stringify(config), languages: JSON.stringify(languages) }).returning('id').executeTakeFirstOrThrow();
      ids[name] = row.id as number;
    };
    await add('tesseract-local', 'tesseract-local', {}, ['en']);
    await add('paddle-a', 'paddleocr', { baseUrl: peers[0]!.url, module: 'ocr_system', languages: ['en', only] }, []);
    await add('paddle-b', 'paddleocr', { baseUrl: peers[1]!.url, module: 'ocr_system', languages: ['en', only] }, []);
    const adapters = createAdapterRegistry();
    adapters.register(tesseractDefinition(), 'engine-tesseract');
    adapters.register(paddleOcrDefinition, 'engine-paddleocr');
    service = createTranslationService({ db: t.database.db, dataDir: t.dataDir, logger: quiet, readSetting: async () => null, adapters });
    await service.start();
  }, 60_000);
  afterAll(async () => {
    await service?.close();
    for (const p of peers) await p.close();
    await t?.cleanup();
  });

  const health = async (id: number) => (await t.database.db.selectFrom('engine_nodes').select('health').where('id', '=', id).executeTakeFirstOrThrow()).health;

  it('reads a picture on an OCR node that reads its language, least busy first, saying which node answered', async () => {
    expect(await service!.ocr.languages()).toEqual(expect.arrayContaining(['en', only]));
    const results = await Promise.all([1, 2, 3].map(() => service!.ocr.recognize({ image: picture('OPEN DAILY'), languages: ['en'] })));
    for (const r of results) expect(r.lines.map((l) => l.text)).toEqual(['OPEN DAILY']);
    // Three at once: each node took one (none was busier than the others when it was picked).
    expect(new Set(results.map((r) => r.nodeId))).toEqual(new Set(Object.values(ids)));
    const remote = results.find((r) => r.kind === 'paddleocr')!;
    expect(remote.languages).toEqual(['en']);
    // A language only the remote nodes are offered for goes to them (with the others they read).
    const other = await service!.ocr.recognize({ image: picture('HELLO'), languages: [only, 'en', 'de'] });
    expect(other.kind).toBe('paddleocr');
    expect(other.languages).toEqual([only, 'en']);
  }, 60_000);

  it('answers 400 in both languages for no picture, no language and a language no node reads', async () => {
    await expect(service!.ocr.recognize({ image: new Uint8Array(), languages: ['en'] })).rejects.toMatchObject({ code: 400, messages: { 'zh-CN': '没有可识别的图片' } });
    await expect(service!.ocr.recognize({ image: picture('A'), languages: [] })).rejects.toMatchObject({ code: 400, messages: { 'en-US': 'The language of the text in the picture is required' } });
    await expect(service!.ocr.recognize({ image: picture('A'), languages: ['de'] })).rejects.toMatchObject({
      code: 400,
      messages: { 'zh-CN': '没有能识别 German 文字的文字识别引擎', 'en-US': 'No OCR engine reads German' },
      data: { reason: 'noOcrEngine', language: 'de' },
    });
  });

  it('fails a picture the engine refuses alone (400), the node staying healthy', async () => {
    const broken = picture('X').subarray(0, 200);
    await expect(service!.ocr.recognize({ image: broken, languages: [only] })).rejects.toMatchObject({ code: 400, data: { reason: 'engine-refused' } });
    expect(await health(ids['paddle-a']!)).toBe('healthy');
    expect(await health(ids['paddle-b']!)).toBe('healthy');
  }, 60_000);

  it('fails over from a node that is down, marking it unhealthy, and answers 503 when every node is down', async () => {
    await service!.nodes.stop(ids['tesseract-local']!);
    peers[0]!.options.misbehave = 'down';
    const before = peers[1]!.requests.length;
    for (let i = 0; i < 2; i++) expect((await service!.ocr.recognize({ image: picture('EXIT'), languages: ['en'] })).nodeId).toBe(ids['paddle-b']);
    expect(peers[1]!.requests.length).toBe(before + 2);
    expect(await health(ids['paddle-a']!)).toBe('unhealthy');
    peers[1]!.options.misbehave = 'down';
    await expect(service!.ocr.recognize({ image: picture('EXIT'), languages: ['en'] })).rejects.toMatchObject({ code: 503, messages: { 'en-US': 'Service interrupted: no OCR node is available right now. Try again later.' } });
    expect(await health(ids['paddle-b']!)).toBe('unhealthy');
    // The local node started again takes the work.
    await service!.nodes.start(ids['tesseract-local']!);
    expect((await service!.ocr.recognize({ image: picture('EXIT'), languages: ['en'] })).kind).toBe('tesseract-local');
  }, 60_000);
});
