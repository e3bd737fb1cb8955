import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wordErrorRate } from '@linguaport/sdk/server';
import { readSubtitles } from '@linguaport/sdk/interchange';
import { ADMIN_PASSWORD, createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// Audio/video translation in the real kernel with the real parts: a short English video made at test
// time (espeak-ng speech over a blue picture), ffmpeg's 16 kHz sound, the seeded pocketsphinx node,
// the seeded Apertium engine (en -> es), subtitles read back, ffmpeg burning them in (frames compared
// with the original's), a corrected line translated again, and refused calls that change nothing.

let k: TestKernel;
let owner: string;
let other: string;
let dir: string;
const SENTENCE = 'The children are playing in the park.';
const media: Record<string, Buffer> = {};
const at = (name: string) => join(dir, name);
const ffmpeg = (...args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-v', 'error', '-y', ...args]);

async function call(method: string, url: string, token: string | null, payload?: unknown, locale = 'en-US') {
  const res = await k.app.inject({ method: method as 'GET', url, headers: { ...(token ? { jwt: token } : {}), cookie: `locale=${locale}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: String(res.headers['content-type'] ?? '').includes('json') ? res.json() : res.body, raw: res.rawPayload, headers: res.headers };
}

async function upload(token: string, fields: Record<string, string>, file: { name: string; content: Buffer | string } | null, locale = 'en-US') {
  const boundary = '----transvideotest';
  const parts: Buffer[] = [];
  for (const [n, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
    parts.push(Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content));
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const res = await k.app.inject({ method: 'POST', url: '/api/transVideo/upload', headers: { jwt: token, cookie: `locale=${locale}`, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat(parts) });
  return { status: res.statusCode, body: res.json() };
}

async function waitFor(token: string, id: number, until: (job: any) => boolean, timeoutMs = 120_000) {
  let last: any = null;
  await expect
    .poll(
      async () => {
        last = (await call('GET', `/api/transVideo/get/${id}`, token)).body.data;
        return until(last.job);
      },
      { timeout: timeoutMs, interval: 200 },
    )
    .toBe(true);
  return last as { job: any; cues: Array<{ index: number; start: number; end: number; source: string; target: string; edited: boolean }> };
}

async function digest() {
  const rows = await k.database.db.selectFrom('tv_jobs' as never).selectAll().orderBy('id' as never).execute();
  const cues = await k.database.db.selectFrom('tv_cues' as never).selectAll().execute();
  const folder = join(k.config.dataDir, 'files', 'trans-video');
  const files = existsSync(folder) ? readdirSync(folder, { recursive: true }).map(String).sort() : [];
  return JSON.stringify({ rows, cues, files });
}

/** The picture at `seconds` as raw RGB, to tell a blue frame from one with subtitles drawn on it. */
function frame(bytes: Buffer, seconds: number): Buffer {
  const path = at(`frame-${Math.random().toString(16).slice(2)}.mp4`);
  writeFileSync(path, bytes);
  try {
    return execFileSync('ffmpeg', ['-v', 'error', '-ss', seconds.toFixed(2), '-i', path, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1']);
  } finally {
    rmSync(path);
  }
}
/** Pixels much brighter in red and green than pure blue: the subtitle's white letters. */
const lightPixels = (rgb: Buffer) => {
  let n = 0;
  for (let i = 0; i + 2 < rgb.length; i += 3) if (rgb[i]! > 160 && rgb[i + 1]! > 160) n++;
  return n;
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'trans-video-test-'));
  execFileSync('espeak-ng', ['-v', 'en-us', '-s', '120', '-w', at('speech.wav'), SENTENCE]);
  ffmpeg('-f', 'lavfi', '-i', 'color=c=blue:s=320x240:rate=10', '-i', at('speech.wav'), '-af', 'volume=0.5,apad=pad_dur=0.5', '-shortest', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-movflags', '+faststart', at('talk.mp4'));
  media['talk.mp4'] = readFileSync(at('talk.mp4'));
  k = await startTestKernel({ plugins: ['trans-video'], options: { tasks: { heartbeatMs: 200, staleAfterMs: 3_000, sweepMs: 500, progressEveryMs: 50 } } });
  await createUserWithRole(k, 'tv-owner', 'Owner-Passw0rd', 'video translators', ['transVideo:use']);
  await createUserWithRole(k, 'tv-other', 'Other-Passw0rd', 'video translators too', ['transVideo:use']);
  owner = await k.login('tv-owner', 'Owner-Passw0rd');
  other = await k.login('tv-other', 'Other-Passw0rd');
  void ADMIN_PASSWORD;
}, 120_000);

afterAll(async () => {
  await k?.shutdown();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('audio and video translation', () => {
  it('offers English speech with its translation targets', async () => {
    const setup = (await call('GET', '/api/transVideo/setup', owner)).body.data;
    const en = setup.languages.find((l: { code: string }) => l.code === 'en');
    expect(en.targets).toContain('es');
  }, 60_000);

  it('recognises an English video, translates it into Spanish subtitles, burns them in, and re-translates a corrected line', async () => {
    const started = await upload(owner, { sourceLanguage: 'en', targetLanguage: 'es', burn: 'target' }, { name: 'talk.mp4', content: media['talk.mp4']! });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.data).toMatchObject({ name: 'talk.mp4', hasVideo: true, sourceLanguage: 'en', targetLanguage: 'es', burnTrack: 'target' });
    const id = started.body.data.id as number;
    const done = await waitFor(owner, id, (j) => j.status === 'completed' || j.status === 'failed');
    expect(done.job.status, done.job.error).toBe('completed');
    expect(done.cues.length).toBeGreaterThan(0);
    const heard = done.cues.map((c) => c.source).join(' ');
    const wer = wordErrorRate(SENTENCE, heard);
    console.log(`trans-video: heard "${heard}" (WER ${wer.toFixed(2)}) -> "${done.cues.map((c) => c.target).join(' ')}"`);
    expect(wer).toBeLessThan(0.6);
    for (const c of done.cues) expect(c.target).not.toBe(c.source);

    // Subtitles in both formats and every track read back with the lines and times of the cues.
    for (const format of ['srt', 'vtt']) {
      for (const track of ['source', 'target', 'bilingual']) {
        const res = await call('GET', `/api/transVideo/subtitles/${id}?format=${format}&track=${track}`, owner);
        expect(res.status).toBe(200);
        const cues = readSubtitles(String(res.body));
        expect(cues).toHaveLength(done.cues.length);
        cues.forEach((c, i) => {
          expect(c.start).toBeCloseTo(done.cues[i]!.start, 2);
          expect(c.end).toBeCloseTo(done.cues[i]!.end, 2);
          const want = track === 'source' ? done.cues[i]!.source : track === 'target' ? done.cues[i]!.target : `${done.cues[i]!.source}\n${done.cues[i]!.target}`;
          expect(c.text).toBe(want);
        });
      }
    }
    const transcript = await call('GET', `/api/transVideo/transcript/${id}`, owner);
    expect(String(transcript.body)).toContain(`es: ${done.cues[0]!.target}`);

    // The burned video: same length, blue where the original is blue, letters where a line is on screen.
    const burned = await waitFor(owner, id, (j) => j.burnStatus === 'completed' || j.burnStatus === 'failed');
    expect(burned.job.burnStatus, burned.job.burnError).toBe('completed');
    const video = await call('GET', `/api/transVideo/burned/${id}`, owner);
    expect(video.status).toBe(200);
    const middle = (done.cues[0]!.start + done.cues[0]!.end) / 2;
    expect(lightPixels(frame(media['talk.mp4']!, middle))).toBe(0);
    expect(lightPixels(frame(video.raw, middle))).toBeGreaterThan(50);

    // Correcting a line's recognised text translates it again; the subtitles follow; the burned video is stale.
    const fixed = await call('PUT', `/api/transVideo/cue/${id}/1`, owner, { source: 'The children are playing in the garden.' });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(fixed.body.data).toMatchObject({ index: 1, source: 'The children are playing in the garden.', edited: true });
    expect(fixed.body.data.target).toMatch(/jard[ií]n/i);
    const srt = readSubtitles(String((await call('GET', `/api/transVideo/subtitles/${id}?format=srt&track=target`, owner)).body));
    expect(srt[0]!.text).toBe(fixed.body.data.target);
    expect((await call('GET', `/api/transVideo/get/${id}`, owner)).body.data.job.burnStale).toBe(true);
    // A translation corrected by hand is kept as written.
    const own = await call('PUT', `/api/transVideo/cue/${id}/1`, owner, { target: 'Los niños juegan en el jardín.' });
    expect(own.body.data.target).toBe('Los niños juegan en el jardín.');

    // Another user is told it does not exist.
    expect((await call('GET', `/api/transVideo/get/${id}`, other)).body.code).toBe(404);
    expect((await call('PUT', `/api/transVideo/cue/${id}/1`, other, { source: 'x' })).body.code).toBe(404);
    expect((await call('GET', `/api/transVideo/media/${id}`, other)).body.code).toBe(404);
    expect((await call('DELETE', `/api/transVideo/delete?ids=${id}`, other)).body.code).toBe(404);
  }, 240_000);

  it('serves the media in byte ranges, so the preview plays and seeks without downloading it all first', async () => {
    const started = await upload(owner, { sourceLanguage: 'en', targetLanguage: 'es' }, { name: 'seek.mp4', content: media['talk.mp4']! });
    const id = started.body.data.id as number;
    const file = media['talk.mp4']!;
    const size = file.length;
    const get = (headers: Record<string, string>, token = owner, method: 'GET' | 'HEAD' = 'GET') => k.app.inject({ method, url: `/api/transVideo/media/${id}`, headers: { jwt: token, cookie: 'locale=en-US', ...headers } });
    const whole = await get({});
    expect(whole.statusCode).toBe(200);
    expect(whole.headers).toMatchObject({ 'accept-ranges': 'bytes', 'content-type': 'video/mp4', 'content-length': String(size) });
    expect(whole.rawPayload.equals(file)).toBe(true);
    // Chromium's player opens with bytes=0-: a 206 tells it the file is seekable.
    const open = await get({ range: 'bytes=0-' });
    expect(open.statusCode).toBe(206);
    expect(open.headers['content-range']).toBe(`bytes 0-${size - 1}/${size}`);
    // A seek to the middle, the last bytes (suffix), and a range past the end.
    const middle = Math.floor(size / 2);
    const seek = await get({ range: `bytes=${middle}-${middle + 999}` });
    expect(seek.statusCode).toBe(206);
    expect(seek.headers).toMatchObject({ 'content-range': `bytes ${middle}-${middle + 999}/${size}`, 'content-length': '1000' });
    expect(seek.rawPayload.equals(file.subarray(middle, middle + 1000))).toBe(true);
    const tail = await get({ range: 'bytes=-500' });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(file.subarray(size - 500))).toBe(true);
    const past = await get({ range: `bytes=${size}-` });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${size}`);
    expect(past.json().msg).toBe(`The requested byte range is outside the file (${size} bytes)`);
    const pastZh = await get({ range: `bytes=${size}-`, cookie: 'locale=zh-CN' });
    expect(pastZh.json().msg).toBe(`请求的字节范围超出文件大小（${size} 字节）`);
    // HEAD: the same headers, no body.
    const head = await get({ range: 'bytes=0-99' }, owner, 'HEAD');
    expect(head.statusCode).toBe(206);
    expect(head.headers).toMatchObject({ 'content-length': '100', 'content-range': `bytes 0-99/${size}` });
    expect(head.rawPayload.length).toBe(0);
    // Another user's range is refused like the whole file.
    expect((await get({ range: 'bytes=0-99' }, other)).json().code).toBe(404);
    // The preview's <video> element sends no Jwt header: the console's session cookie serves it, and only it.
    const byCookie = (token: string) => k.app.inject({ method: 'GET', url: `/api/transVideo/media/${id}`, headers: { cookie: `locale=en-US; lp_token=${token}`, range: 'bytes=0-99' } });
    const played = await byCookie(owner);
    expect(played.statusCode).toBe(206);
    expect(played.rawPayload.equals(file.subarray(0, 100))).toBe(true);
    expect((await byCookie(other)).json().code).toBe(404);
    expect((await byCookie('not-a-session')).json().code).toBe(601);
    expect((await k.app.inject({ method: 'GET', url: `/api/transVideo/get/${id}`, headers: { cookie: `lp_token=${owner}` } })).json().code).toBe(601);
    await call('POST', `/api/transVideo/cancel/${id}`, owner);
  });

  it('cancels a job, runs it again, and deletes it with its files and lines', async () => {
    const started = await upload(owner, { sourceLanguage: 'en', targetLanguage: 'es' }, { name: 'again.mp4', content: media['talk.mp4']! });
    const id = started.body.data.id as number;
    const cancelled = await call('POST', `/api/transVideo/cancel/${id}`, owner);
    expect(cancelled.body.data.status).toBe('cancelled');
    // A cancelled job is not cancelled again; it runs again on request.
    expect((await call('POST', `/api/transVideo/cancel/${id}`, owner)).body.code).toBe(409);
    const retried = await call('POST', `/api/transVideo/retry/${id}`, owner);
    expect(retried.body.data.status).toBe('queued');
    const done = await waitFor(owner, id, (j) => j.status === 'completed' || j.status === 'failed');
    expect(done.job.status, done.job.error).toBe('completed');
    expect(done.cues.length).toBeGreaterThan(0);
    expect((await call('POST', `/api/transVideo/burn/${id}`, owner, { track: 'sideways' })).body.code).toBe(400);
    const folder = join(k.config.dataDir, 'files', 'trans-video', 'jobs', String(id));
    expect(existsSync(folder)).toBe(true);
    expect((await call('DELETE', `/api/transVideo/delete?ids=${id}`, owner)).body.data).toEqual({ deleted: 1 });
    expect(existsSync(folder)).toBe(false);
    expect(await k.database.db.selectFrom('tv_cues' as never).selectAll().where('job_id' as never, '=', id as never).execute()).toEqual([]);
    expect((await call('GET', `/api/transVideo/get/${id}`, owner)).body.code).toBe(404);
  }, 120_000);

  it('refuses playlists and lists of other files before ffmpeg opens what they name, in either language, storing nothing', async () => {
    ffmpeg('-i', at('speech.wav'), at('secret.mp3'));
    ffmpeg('-i', at('talk.mp4'), '-c', 'copy', '-f', 'mpegts', at('secret.ts'));
    const hls = (segment: string) => `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.0,\n${segment}\n#EXT-X-ENDLIST\n`;
    const before = await digest();
    for (const [name, content] of [['talk.m3u8', hls(at('secret.mp3'))], ['talk.mp4', hls(at('secret.ts'))], ['talk.wav', `ffconcat version 1.0\nfile ${at('secret.mp3')}\n`]]) {
      const en = await upload(owner, { sourceLanguage: 'en', targetLanguage: 'es' }, { name: name!, content: content! });
      expect(en.status, JSON.stringify(en.body)).toBe(400);
      expect(en.body.msg).toBe(`${name}: playlists (HLS, DASH) and lists that point to other files are not accepted; upload the audio or video file itself`);
      const zh = await upload(owner, { sourceLanguage: 'en', targetLanguage: 'es' }, { name: name!, content: content! }, 'zh-CN');
      expect(zh.body.msg).toBe(`${name}：不接受播放列表（如 HLS、DASH）或引用其他文件的列表，请上传音视频文件本身`);
    }
    expect(await digest()).toBe(before);
  }, 60_000);

  it('refuses what it cannot translate with a message in either language, storing nothing', async () => {
    const before = await digest();
    const text = await upload(owner, { sourceLanguage: 'en', targetLanguage: 'es' }, { name: 'notes.mp4', content: 'just some text, not a video' }, 'zh-CN');
    expect(text.status).toBe(400);
    expect(text.body.msg).toContain('不是支持的音频或视频文件');
    const en = await upload(owner, { sourceLanguage: 'en', targetLanguage: 'es' }, { name: 'notes.mp4', content: 'just some text, not a video' });
    expect(en.body.msg).toContain('not a supported audio or video file');
    const german = await upload(owner, { sourceLanguage: 'de', targetLanguage: 'es' }, { name: 'talk.mp4', content: media['talk.mp4']! });
    expect(german.body).toMatchObject({ code: 400, msg: 'No speech engine recognises de' });
    expect((await upload(owner, { sourceLanguage: 'en', targetLanguage: 'en' }, { name: 'talk.mp4', content: media['talk.mp4']! })).body.code).toBe(400);
    expect((await upload(owner, { sourceLanguage: 'en', targetLanguage: 'es' }, null)).body.code).toBe(400);
    expect((await upload(owner, { sourceLanguage: 'en', targetLanguage: 'es', burn: 'sideways' }, { name: 'talk.mp4', content: media['talk.mp4']! })).body.code).toBe(400);
    expect((await call('GET', '/api/transVideo/subtitles/999999?format=srt', owner)).body.code).toBe(404);
    expect((await call('GET', '/api/transVideo/subtitles/1?format=doc', owner)).body.code).toBe(400);
    expect(await digest()).toBe(before);
  }, 60_000);
});
