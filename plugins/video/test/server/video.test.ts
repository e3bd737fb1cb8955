import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// The audio/video area in the real kernel with real ffmpeg: uploads checked by content, a task per
// file (convert, extract audio, cut) with live progress, downloads read back by ffprobe, another
// user's jobs answering 404, refused uploads storing nothing, and a running job cancelled.

let k: TestKernel;
let admin: string;
let owner: string;
let other: string;
let nobody: string;
let dir: string;
const media: Record<string, Buffer> = {};

const at = (name: string) => join(dir, name);
const hls = (segment: string) => `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.0,\n${segment}\n#EXT-X-ENDLIST\n`;
const ffmpeg = (...args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-v', 'error', '-y', ...args]);

function probe(bytes: Buffer): { format: { duration: string; format_name: string }; streams: Array<{ codec_type: string; codec_name: string }> } {
  const path = at(`probe-${Math.random().toString(16).slice(2)}`);
  writeFileSync(path, bytes);
  try {
    return JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path]).toString());
  } finally {
    rmSync(path);
  }
}

async function call(method: string, url: string, token: string | null, payload?: unknown, locale = 'en-US') {
  const res = await k.app.inject({ method: method as 'GET', url, headers: { ...(token ? { jwt: token } : {}), cookie: `locale=${locale}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: String(res.headers['content-type'] ?? '').includes('json') ? res.json() : res.body, raw: res.rawPayload, headers: res.headers };
}

async function upload(token: string, fields: Record<string, string>, files: Array<{ name: string; content: Buffer | string }>, locale = 'en-US') {
  const boundary = '----videotest';
  const parts: Buffer[] = [];
  for (const [n, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
    parts.push(Buffer.isBuffer(f.content) ? f.content : Buffer.from(f.content));
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const res = await k.app.inject({ method: 'POST', url: '/api/video/upload', headers: { jwt: token, cookie: `locale=${locale}`, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat(parts) });
  return { status: res.statusCode, body: res.json() };
}

async function waitFor(token: string, id: number, until: (job: any) => boolean, timeoutMs = 60_000) {
  let last: any = null;
  await expect
    .poll(
      async () => {
        last = (await call('GET', `/api/video/get/${id}`, token)).body.data;
        return until(last);
      },
      { timeout: timeoutMs, interval: 100 },
    )
    .toBe(true);
  return last;
}

/** Everything the area stores (its rows and its files), to show that a refused call changed nothing. */
async function digest() {
  const rows = await k.database.db.selectFrom('video_jobs' as never).selectAll().orderBy('id' as never).execute();
  const folder = join(k.config.dataDir, 'files', 'video');
  const files = existsSync(folder) ? readdirSync(folder, { recursive: true }).map(String).sort() : [];
  return JSON.stringify({ rows, files });
}

/** A signed-in WebSocket: every message after `ws.ready`. */
async function openSocket(token: string) {
  if (!k.app.server.address()) await k.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = k.app.server.address() as { port: number };
  const socket = new WebSocket(`ws://127.0.0.1:${port}/api/ws?token=${encodeURIComponent(token)}`);
  const messages: Array<{ type: string; payload: any }> = [];
  await new Promise<void>((ready) =>
    socket.on('message', (data) => {
      const m = JSON.parse(String(data));
      if (m.type === 'ws.ready') ready();
      else messages.push(m);
    }),
  );
  return { messages, close: () => socket.close() };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'video-test-'));
  execFileSync('espeak-ng', ['-v', 'en', '-w', at('speech.wav'), 'Audio and video conversion keeps the words.']);
  ffmpeg('-f', 'lavfi', '-i', 'color=c=blue:size=160x120:duration=3:rate=10', '-f', 'lavfi', '-i', 'sine=frequency=330:duration=3', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', at('clip.mp4'));
  // Long enough (10 minutes) that its conversion is still running when the test cancels it.
  ffmpeg('-f', 'lavfi', '-i', 'color=c=green:size=160x120:duration=600:rate=10', '-f', 'lavfi', '-i', 'sine=frequency=200:duration=600:sample_rate=22050', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '32k', '-shortest', at('long.mp4'));
  for (const name of ['speech.wav', 'clip.mp4', 'long.mp4']) media[name] = readFileSync(at(name));

  k = await startTestKernel({ plugins: ['video'], options: { tasks: { heartbeatMs: 200, staleAfterMs: 3_000, sweepMs: 500, progressEveryMs: 50 } } });
  admin = await k.login('admin', ADMIN_PASSWORD);
  await createUserWithRole(k, 'vid-owner', 'Owner-Passw0rd', 'video users', ['video:use']);
  await createUserWithRole(k, 'vid-other', 'Other-Passw0rd', 'video users too', ['video:use']);
  await createUserWithRole(k, 'vid-nobody', 'Nobody-Passw0rd', 'no video', []);
  owner = await k.login('vid-owner', 'Owner-Passw0rd');
  other = await k.login('vid-other', 'Other-Passw0rd');
  nobody = await k.login('vid-nobody', 'Nobody-Passw0rd');
}, 120_000);

afterAll(async () => {
  await k?.shutdown();
  rmSync(dir, { recursive: true, force: true });
});

describe('jobs', () => {
  let wavJob: number;

  it('converts a WAV to MP3: queued, completed with progress 1, downloaded as MP3', async () => {
    const res = await upload(owner, { operation: 'convert', to: 'mp3' }, [{ name: 'speech.wav', content: media['speech.wav']! }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [job] = res.body.data;
    expect(job).toMatchObject({ name: 'speech.wav', operation: 'convert', to: 'mp3', format: 'wav', hasAudio: true, hasVideo: false });
    expect(['queued', 'running']).toContain(job.status);
    wavJob = job.id;
    const done = await waitFor(owner, job.id, (j) => j.status === 'completed' || j.status === 'failed');
    expect(done).toMatchObject({ status: 'completed', progress: 1, resultName: 'speech.mp3' });
    const task = await call('GET', `/api/tasks/${done.taskId}`, owner);
    expect(task.body.data.state).toBe('completed');

    const file = await call('GET', `/api/video/download/${job.id}`, owner);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('audio/mpeg');
    expect(String(file.headers['content-disposition'])).toContain('speech.mp3');
    const read = probe(file.raw);
    expect(read.format.format_name).toBe('mp3');
    expect(read.streams[0]!.codec_name).toBe('mp3');
    expect(Math.abs(Number(read.format.duration) - done.duration)).toBeLessThan(0.15);
    expect(done.resultSize).toBe(file.raw.length);
    // A player, or a download resuming, asks for part of it.
    expect(file.headers['accept-ranges']).toBe('bytes');
    const part = await k.app.inject({ method: 'GET', url: `/api/video/download/${job.id}`, headers: { jwt: owner, range: 'bytes=100-199' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${file.raw.length}`);
    expect(part.rawPayload.equals(file.raw.subarray(100, 200))).toBe(true);
  });

  it('cuts a clip from a video to the asked length, keeping its container', async () => {
    const res = await upload(owner, { operation: 'cut', startSeconds: '0.5', endSeconds: '2' }, [{ name: 'clip.mp4', content: media['clip.mp4']! }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const done = await waitFor(owner, res.body.data[0].id, (j) => j.status === 'completed' || j.status === 'failed');
    expect(done).toMatchObject({ status: 'completed', to: 'mp4', startSeconds: 0.5, endSeconds: 2, resultName: 'clip_0.5-2s.mp4' });
    const read = probe((await call('GET', `/api/video/download/${done.id}`, owner)).raw);
    expect(Math.abs(Number(read.format.duration) - 1.5)).toBeLessThan(0.1);
    expect(read.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
  });

  it('extracts the sound of a video as OGG, and takes two files in one upload', async () => {
    const res = await upload(owner, { operation: 'extractAudio', to: 'ogg' }, [
      { name: 'clip.mp4', content: media['clip.mp4']! },
      { name: 'second clip.mp4', content: media['clip.mp4']! },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toHaveLength(2);
    for (const job of res.body.data) {
      const done = await waitFor(owner, job.id, (j) => j.status === 'completed' || j.status === 'failed');
      expect(done.status).toBe('completed');
      const read = probe((await call('GET', `/api/video/download/${job.id}`, owner)).raw);
      expect(read.streams.map((s) => `${s.codec_type}:${s.codec_name}`)).toEqual(['audio:vorbis']);
    }
  });

  it('lists own jobs only, paged, searched by name and filtered by status and operation', async () => {
    const mine = (await call('GET', '/api/video/list?pageSize=2', owner)).body.data;
    expect(mine.total).toBe(4);
    expect(mine.records).toHaveLength(2);
    expect(mine.records[0].id).toBeGreaterThan(mine.records[1].id);
    const second = (await call('GET', '/api/video/list?pageSize=2&pageNum=2', owner)).body.data;
    expect(second.records.map((r: any) => r.id)).not.toContain(mine.records[0].id);
    const named = (await call('GET', '/api/video/list?name=second', owner)).body.data;
    expect(named.records.map((r: any) => r.name)).toEqual(['second clip.mp4']);
    const cuts = (await call('GET', '/api/video/list?operation=cut&status=completed', owner)).body.data;
    expect(cuts.records.map((r: any) => r.operation)).toEqual(['cut']);
    expect((await call('GET', '/api/video/list?status=failed', owner)).body.data.total).toBe(0);
    expect((await call('GET', '/api/video/list', other)).body.data.total).toBe(0);
  });

  it("answers 404 for another user's job on every call, and changes nothing", async () => {
    const before = await digest();
    for (const [method, url] of [
      ['GET', `/api/video/get/${wavJob}`],
      ['GET', `/api/video/download/${wavJob}`],
      ['POST', `/api/video/cancel/${wavJob}`],
      ['POST', `/api/video/retry/${wavJob}`],
      ['DELETE', `/api/video/delete?ids=${wavJob}`],
    ] as const) {
      const res = await call(method, url, other);
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body.msg).toBe(`Job not found: ${wavJob}`);
    }
    // Even the administrator does not reach a user's own jobs.
    expect((await call('GET', `/api/video/get/${wavJob}`, admin)).status).toBe(404);
    expect(await digest()).toBe(before);
  });

  it('refuses a caller without video:use (403) and settings to one without video:manage', async () => {
    expect((await call('GET', '/api/video/list', nobody)).status).toBe(403);
    expect((await upload(nobody, { operation: 'convert', to: 'mp3' }, [{ name: 'speech.wav', content: media['speech.wav']! }])).status).toBe(403);
    expect((await call('GET', '/api/video/settings', owner)).status).toBe(403);
  });
});

describe('refused uploads store nothing', () => {
  it.each([
    ['a text file named .mp3', { operation: 'convert', to: 'mp3' }, [{ name: 'notes.mp3', content: 'plain words, not sound\n'.repeat(30) }], 'notes.mp3: not an audio or video file (checked by content)', 'notes.mp3：不是音频或视频文件（按内容识别）'],
    ['an empty file', { operation: 'convert', to: 'mp3' }, [{ name: 'empty.wav', content: '' }], 'empty.wav: cannot upload an empty file', 'empty.wav：不能上传空文件'],
    ['a conversion without a target', { operation: 'convert' }, [{ name: 'speech.wav', content: 'speech.wav' }], 'Choose the format to convert to', '请选择目标格式'],
    ['extracted audio as a video format', { operation: 'extractAudio', to: 'mp4' }, [{ name: 'clip.mp4', content: 'clip.mp4' }], 'Extracted audio is written as an audio format (mp3, wav, m4a, ogg, flac)', '提取音频只能输出音频格式（mp3、wav、m4a、ogg、flac）'],
    ['a cut ending before it starts', { operation: 'cut', startSeconds: '2', endSeconds: '1' }, [{ name: 'clip.mp4', content: 'clip.mp4' }], 'The end time must come after the start time', '结束时间必须晚于开始时间'],
    ['a cut starting after the end', { operation: 'cut', startSeconds: '5', endSeconds: '6' }, [{ name: 'clip.mp4', content: 'clip.mp4' }], 'clip.mp4: the cut starts after the end of the file (0:03)', 'clip.mp4：剪切的开始时间超出了文件时长（0:03）'],
    ['no files', { operation: 'convert', to: 'mp3' }, [], 'Choose the audio or video files to process', '请选择要处理的音视频文件'],
    ['one good file beside a bad one', { operation: 'convert', to: 'mp3' }, [{ name: 'speech.wav', content: 'speech.wav' }, { name: 'fake.wav', content: 'RIFF not really' }], 'fake.wav: not an audio or video file (checked by content)', 'fake.wav：不是音频或视频文件（按内容识别）'],
  ] as const)('refuses %s with 400 in both languages', async (_what, fields, files, english, chinese) => {
    const real = files.map((f) => ({ name: f.name, content: media[f.content] ?? f.content }));
    const before = await digest();
    const en = await upload(owner, fields as Record<string, string>, real, 'en-US');
    expect(en.status, JSON.stringify(en.body)).toBe(400);
    expect(en.body.msg).toBe(english);
    const zh = await upload(owner, fields as Record<string, string>, real, 'zh-CN');
    expect(zh.status).toBe(400);
    expect(zh.body.msg).toBe(chinese);
    expect(await digest()).toBe(before);
  });

  // ffmpeg follows an HLS playlist to the local files it names (another user's stored result, by its
  // predictable path): such uploads are refused before ffmpeg opens anything, and no job is made.
  it.each([
    ['an HLS playlist of a local mp3', 'playlist.m3u8', () => hls(at('secret.mp3'))],
    ['the same playlist named .mp3', 'voice.mp3', () => hls(at('secret.mp3'))],
    ['an HLS playlist of a local .ts', 'clip.mp4', () => hls(at('secret.ts'))],
    ['an ffconcat list named .wav', 'list.wav', () => `ffconcat version 1.0\nfile ${at('secret.mp3')}\n`],
  ])('refuses %s with 400 in both languages, making no job', async (_what, name, content) => {
    if (!existsSync(at('secret.ts'))) {
      ffmpeg('-i', at('speech.wav'), '-c:a', 'libmp3lame', at('secret.mp3'));
      ffmpeg('-i', at('clip.mp4'), '-c', 'copy', '-f', 'mpegts', at('secret.ts'));
    }
    const before = await digest();
    const operations: Array<Record<string, string>> = [{ operation: 'convert', to: 'mp3' }, { operation: 'extractAudio' }, { operation: 'cut', startSeconds: '0', endSeconds: '1' }];
    for (const operation of operations) {
      const en = await upload(other, operation, [{ name, content: content() }], 'en-US');
      expect(en.status, JSON.stringify(en.body)).toBe(400);
      expect(en.body.msg).toBe(`${name}: playlists (HLS, DASH) and lists that point to other files are not accepted; upload the audio or video file itself`);
      const zh = await upload(other, operation, [{ name, content: content() }], 'zh-CN');
      expect(zh.status).toBe(400);
      expect(zh.body.msg).toBe(`${name}：不接受播放列表（如 HLS、DASH）或引用其他文件的列表，请上传音视频文件本身`);
    }
    expect(await digest()).toBe(before);
  });

  it('refuses an unknown operation or target (400) and files over the limits an administrator sets', async () => {
    const before = await digest();
    const unknown = await upload(owner, { operation: 'transcode', to: 'mp3' }, [{ name: 'speech.wav', content: media['speech.wav']! }]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toMatch(/^Invalid request: .*operation/);
    const unknownZh = await upload(owner, { operation: 'transcode', to: 'mp3' }, [{ name: 'speech.wav', content: media['speech.wav']! }], 'zh-CN');
    expect(unknownZh.body.msg).toMatch(/^请求无效：.*operation/);
    expect((await upload(owner, { operation: 'convert', to: 'exe' }, [{ name: 'speech.wav', content: media['speech.wav']! }])).status).toBe(400);
    const limits = await call('PUT', '/api/video/settings', admin, { maxFiles: 1, maxFileMb: 1, maxDurationSeconds: 2 });
    expect(limits.status, JSON.stringify(limits.body)).toBe(200);
    try {
      const long = await upload(owner, { operation: 'convert', to: 'mp3' }, [{ name: 'clip.mp4', content: media['clip.mp4']! }]);
      expect(long.body.msg).toBe('clip.mp4: may play at most 0:02');
      const big = await upload(owner, { operation: 'convert', to: 'mp3' }, [{ name: 'long.mp4', content: media['long.mp4']! }]);
      expect(media['long.mp4']!.length).toBeGreaterThan(1024 * 1024);
      expect(big.body.msg).toBe('long.mp4: a file may be at most 1 MB');
      const many = await upload(owner, { operation: 'convert', to: 'mp3' }, [{ name: 'a.wav', content: media['speech.wav']! }, { name: 'b.wav', content: media['speech.wav']! }]);
      expect(many.body.msg).toBe('At most 1 files at a time');
      expect((await call('PUT', '/api/video/settings', admin, { maxFiles: 0, maxFileMb: 1, maxDurationSeconds: 2 })).status).toBe(400);
    } finally {
      await call('PUT', '/api/video/settings', admin, { maxFiles: 10, maxFileMb: 200, maxDurationSeconds: 3600 });
    }
    expect(await digest()).toBe(before);
  });
});

describe('cancel, retry and delete', () => {
  it('cancels a running job: live progress first, then cancelled with no result, its task cancelled too', async () => {
    const socket = await openSocket(owner);
    try {
      const res = await upload(owner, { operation: 'convert', to: 'webm' }, [{ name: 'long.mp4', content: media['long.mp4']! }]);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const id = res.body.data[0].id as number;
      // Progress between 0 and 1 arrives over the WebSocket while ffmpeg works.
      await expect
        .poll(() => socket.messages.some((m) => m.type === 'video.jobChanged' && m.payload.id === id && m.payload.status === 'running' && m.payload.progress > 0 && m.payload.progress < 1), { timeout: 60_000, interval: 50 })
        .toBe(true);
      const cancelled = await call('POST', `/api/video/cancel/${id}`, owner);
      expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
      expect(cancelled.body.data).toMatchObject({ status: 'cancelled', resultName: null });
      const job = (await call('GET', `/api/video/get/${id}`, owner)).body.data;
      expect(job.status).toBe('cancelled');
      expect((await call('GET', `/api/tasks/${job.taskId}`, owner)).body.data.state).toBe('cancelled');
      expect((await call('GET', `/api/video/download/${id}`, owner)).status).toBe(409);
      expect(readdirSync(join(k.config.dataDir, 'files', 'video', 'jobs', String(id)))).toEqual(['source.mp4']);
      // A second cancel is refused: the job is no longer running.
      expect((await call('POST', `/api/video/cancel/${id}`, owner)).status).toBe(409);
      // No ffmpeg of this job is left running.
      const left = execFileSync('ps', ['-eo', 'args']).toString().split('\n').filter((l) => l.startsWith('ffmpeg') && l.includes(k.config.dataDir) && l.includes(`jobs/${id}/`));
      expect(left).toEqual([]);
    } finally {
      socket.close();
    }
  });

  it('runs a cancelled job again on request, then deletes it with its files', async () => {
    const res = await upload(owner, { operation: 'convert', to: 'flac' }, [{ name: 'speech.wav', content: media['speech.wav']! }]);
    const id = res.body.data[0].id as number;
    await waitFor(owner, id, (j) => j.status === 'completed');
    expect((await call('POST', `/api/video/retry/${id}`, owner)).status).toBe(409);
    expect((await call('POST', `/api/video/cancel/${id}`, owner)).status).toBe(409);

    const cancelled = (await call('GET', '/api/video/list?status=cancelled', owner)).body.data.records[0];
    const again = await call('POST', `/api/video/retry/${cancelled.id}`, owner);
    expect(again.status).toBe(200);
    expect(again.body.data.status).toBe('queued');
    await call('POST', `/api/video/cancel/${cancelled.id}`, owner);

    const folder = join(k.config.dataDir, 'files', 'video', 'jobs', String(id));
    expect(readdirSync(folder).sort()).toEqual(['result.flac', 'source.wav']);
    const deleted = await call('DELETE', `/api/video/delete?ids=${id},${cancelled.id}`, owner);
    expect(deleted.body.data).toEqual({ deleted: 2 });
    expect(existsSync(folder)).toBe(false);
    expect((await call('GET', `/api/video/get/${id}`, owner)).status).toBe(404);
  });
});
