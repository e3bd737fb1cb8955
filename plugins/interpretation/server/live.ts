import { sql } from 'kysely';
import { isEngineError, requestLocale, voiceprintService, type LocalizedText, type PluginSocket, type ServerPluginContext, type SocketConnection } from '@linguaport/sdk/server';
import { clientMessageSchema, KEYS, LIVE_PATH, SAMPLE_RATE, type InterpretationConfig, type LiveMessage } from '../shared/schemas.js';
import { checkPair, speechLanguage, usableEngines, type ConfigStore } from './config.js';
import { M } from './messages.js';
import type { Db } from './tables.js';
import { VoiceActivityDetector, wavOf, type VadEvent, type VadOptions } from './vad.js';

/**
 * The live socket (`/api/interpretation/live`): the browser streams 16 kHz mono 16-bit PCM in binary
 * frames; an energy VAD cuts utterances; while one is spoken the utterance so far is recognised again
 * about once a second (one recognition at a time) and sent as `partial`; when the speaker pauses,
 * recognition of the whole utterance starts at once, so that when the pause turns out to be the end
 * (500 ms of silence) the transcript is ready or nearly so; it is translated (memories and terms
 * apply), labelled with the enrolled speaker when voiceprints are on, stored and sent as `final`.
 */

export interface LiveOptions {
  vad?: VadOptions;
  /** Seconds between partial recognitions of the growing utterance. */
  partialEverySeconds?: number;
  /** Longest session, in seconds of audio. */
  maxSessionSeconds?: number;
}

const MAX_FRAME_BYTES = 64 * 1024;
/** The kernel's reasons for refusing a chosen engine or speech node (`data.reason` of its 400). */
const CHOICE_REFUSED = new Set(['noSuchEngine', 'engineDisabled', 'engineNotForPair', 'noSuchSpeechNode', 'speechNodeStopped', 'speechNodeNotForLanguage']);

export function liveSocket(ctx: ServerPluginContext, db: Db, configs: ConfigStore, options: LiveOptions = {}) {
  const live = new Set<Promise<void>>();
  ctx.onClose(async () => {
    await Promise.allSettled([...live]);
  });
  ctx.socket({
    url: LIVE_PATH,
    access: { permission: KEYS.use },
    connect(socket, connection) {
      const done = runSession(ctx, db, configs, options, socket, connection).catch((err) => {
        ctx.logger.error(`interpretation session failed: ${(err as Error).message}`);
        socket.close(1011, 'Server error');
      });
      live.add(done);
      void done.finally(() => live.delete(done));
    },
  });
}

async function runSession(ctx: ServerPluginContext, db: Db, configs: ConfigStore, options: LiveOptions, socket: PluginSocket, { caller, query, headers }: SocketConnection) {
  const locale = requestLocale(headers);
  const text = (m: LocalizedText) => m[locale];
  const send = (m: LiveMessage) => socket.send(JSON.stringify(m));
  // Frames that come while the session is set up wait here.
  const pending: (string | Uint8Array)[] = [];
  let handle: ((data: string | Uint8Array) => void) | null = null;
  let closedEarly = false;
  socket.onMessage((data) => (handle ? handle(data) : pending.push(data)));
  socket.onClose(() => {
    closedEarly = true;
    closed();
  });
  let closed = () => {};

  const saved = await configs.get(caller.userId);
  const config: InterpretationConfig = { ...saved, source: query.source || saved.source, target: query.target || saved.target };
  try {
    await checkPair(ctx, config.source, config.target);
  } catch (err) {
    const messages = (err as { messages?: LocalizedText }).messages;
    send({ type: 'error', message: messages ? text(messages) : (err as Error).message, fatal: true });
    socket.close(4400, 'Unusable languages');
    return;
  }
  const heardAs = (await speechLanguage(ctx, config.source))!;
  // A configured engine that has gone since it was saved: the platform's choice serves, and the speaker is told.
  const chosen = await usableEngines(ctx, config);
  const voiceprints = config.speakerLabels && caller.departmentId != null ? ctx.services.find(voiceprintService) : null;
  const labelSpeakers = voiceprints ? await voiceprints.hasSpeakers(caller.departmentId!).catch(() => false) : false;
  if (closedEarly) return;

  const startedAt = new Date();
  const row = await db
    .insertInto('si_sessions')
    .values({ owner_id: caller.userId, owner_name: caller.username, department_id: caller.departmentId, source_language: config.source, target_language: config.target, status: 'live', started_at: startedAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  const sessionId = row.id;
  send({ type: 'ready', sessionId, source: config.source, target: config.target, sampleRate: SAMPLE_RATE, speakers: labelSpeakers });
  if (chosen.gone.includes('speech')) send({ type: 'notice', message: text(M.speechNodeGone) });
  if (chosen.gone.includes('translation')) send({ type: 'notice', message: text(M.engineGone) });

  const vad = new VoiceActivityDetector(options.vad);
  const partialEvery = options.partialEverySeconds ?? 1;
  const maxSeconds = options.maxSessionSeconds ?? 4 * 3600;
  let utterance = -1;
  let finals: Promise<void> = Promise.resolve();
  let partial: { controller: AbortController; utterance: number } | null = null;
  let lastPartialAt = 0;
  /** Recognition started at a pause, on the utterance as it stood then. */
  let early: { controller: AbortController; heard: Promise<string>; pausedAt: number } | null = null;
  const speakers: string[] = [];
  /** The last utterance whose final was sent (a late partial must not follow it). */
  let lastFinal = -1;
  let ending: Promise<void> | null = null;

  /**
   * A chosen engine that refuses the session's work since it started (deleted, stopped, disabled) or is
   * down (503) is dropped for the rest of the session, once, with a notice; the platform's choice retries.
   */
  const withChosen = async <T>(which: 'speech' | 'translation', work: (id: number | undefined) => Promise<T>): Promise<T> => {
    const key = which === 'speech' ? 'speechNodeId' : 'engineId';
    const id = chosen[key];
    if (id === null) return work(undefined);
    try {
      return await work(id);
    } catch (err) {
      const { code, data } = err as { code?: unknown; data?: { reason?: unknown } };
      if (!(code === 503 || (code === 400 && typeof data?.reason === 'string' && CHOICE_REFUSED.has(data.reason)))) throw err;
      if (chosen[key] === id) {
        chosen[key] = null;
        send({ type: 'notice', message: text(which === 'speech' ? M.speechNodeGone : M.engineGone) });
      }
      return work(undefined);
    }
  };
  const recognise = async (samples: Int16Array, signal: AbortSignal) => {
    const audio = wavOf(samples);
    const result = await withChosen('speech', (nodeId) => ctx.engines.speech.transcribe({ audio, language: heardAs, userId: caller.userId, nodeId, signal }));
    return result.segments.map((s) => s.text.trim()).filter(Boolean).join(' ');
  };
  const whyOf = (err: unknown) => (isEngineError(err) ? err.message : ((err as { messages?: LocalizedText }).messages?.[locale] ?? (err as Error).message));

  const finalise = async (index: number, event: Extract<VadEvent, { type: 'end' }>, heard: Promise<string>, pausedAt: number) => {
    let transcript = '';
    try {
      transcript = await heard;
    } catch (err) {
      if ((err as Error).name !== 'AbortError') send({ type: 'error', message: text(M.recognitionFailed(whyOf(err))), fatal: false });
    }
    let translation = '';
    let speaker: string | null = null;
    if (transcript) {
      const [translated, who] = await Promise.all([
        withChosen('translation', (engineId) =>
          ctx.engines.translateSegments({ segments: [{ id: String(index), source: transcript }], source: config.source, target: config.target, format: 'text', domain: config.domain || undefined, engineId, callerId: caller.userId, channel: 'text', resources: { memories: config.memories.length ? config.memories : undefined, termBases: config.termBases.length ? config.termBases : undefined } }),
        )
          .then((r) => r.segments[0]?.target ?? '')
          .catch((err) => {
            send({ type: 'error', message: text(M.translationFailed(whyOf(err))), fatal: false });
            return '';
          }),
        labelSpeakers && voiceprints
          ? voiceprints
              .identify({ departmentId: caller.departmentId!, pcm: Float32Array.from(event.samples, (v) => v / 32768) })
              .then((r) => r.speaker?.name ?? null)
              .catch(() => null)
          : Promise.resolve(null),
      ]);
      translation = translated;
      speaker = who;
      await db
        .insertInto('si_utterances')
        .values({ session_id: sessionId, idx: index, start_seconds: event.start, end_seconds: event.at, source: transcript, target: translation, speaker, created_at: new Date() })
        .execute();
      if (speaker && !speakers.includes(speaker)) speakers.push(speaker);
      await db
        .updateTable('si_sessions')
        .set({ utterance_count: sql`utterance_count + 1`, speakers: JSON.stringify(speakers) })
        .where('id', '=', sessionId)
        .execute();
    }
    lastFinal = index;
    send({ type: 'final', utterance: index, start: event.start, end: event.at, text: transcript, translation, speaker, latencyMs: Math.round(Date.now() - pausedAt) });
  };

  const onEvent = (event: VadEvent) => {
    if (event.type === 'start') {
      utterance += 1;
      lastPartialAt = event.at;
      send({ type: 'speech', utterance });
    } else if (event.type === 'pause') {
      // The speaker stopped: recognise what was said now, so the end finds it ready. A partial under way
      // is dropped: the node recognises one utterance at a time, and the final must not wait behind it.
      partial?.controller.abort();
      partial = null;
      const controller = new AbortController();
      const heard = recognise(event.samples, controller.signal);
      heard.catch(() => undefined);
      early = { controller, heard, pausedAt: Date.now() };
    } else if (event.type === 'resume') {
      early?.controller.abort();
      early = null;
    } else {
      partial?.controller.abort();
      partial = null;
      const index = utterance;
      const ready = early && !event.cut ? early : null;
      early = null;
      const controller = new AbortController();
      const heard = ready ? ready.heard : recognise(event.samples, controller.signal);
      heard.catch(() => undefined);
      const pausedAt = ready?.pausedAt ?? Date.now();
      finals = finals.then(() => finalise(index, event, heard, pausedAt)).catch((err) => ctx.logger.error(`interpretation: utterance ${index} of session ${sessionId}: ${(err as Error).message}`));
    }
  };

  const maybePartial = () => {
    if (!vad.speaking || early || partial || vad.seconds - lastPartialAt < partialEvery) return;
    const samples = vad.current();
    if (!samples) return;
    const mine = { controller: new AbortController(), utterance };
    partial = mine;
    lastPartialAt = vad.seconds;
    recognise(samples, mine.controller.signal).then(
      (heard) => {
        if (heard && !mine.controller.signal.aborted && mine.utterance > lastFinal) send({ type: 'partial', utterance: mine.utterance, text: heard });
      },
      () => undefined,
    ).finally(() => {
      if (partial === mine) partial = null;
    });
  };

  const end = (reason?: LocalizedText): Promise<void> => {
    if (ending) return ending;
    partial?.controller.abort();
    for (const event of vad.flush()) onEvent(event);
    ending = (async () => {
      await finals;
      await db.updateTable('si_sessions').set({ status: 'ended', ended_at: new Date() }).where('id', '=', sessionId).execute();
      if (reason) send({ type: 'error', message: text(reason), fatal: true });
      send({ type: 'ended', sessionId });
      socket.close(1000, 'Session ended');
    })();
    return ending;
  };
  let finished: () => void = () => {};
  const over = new Promise<void>((resolve) => (finished = resolve));
  closed = () => void end().finally(finished);

  handle = (data) => {
    if (ending) return;
    if (typeof data === 'string') {
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(data);
      } catch {
        parsed = null;
      }
      if (clientMessageSchema.safeParse(parsed).success) void end().finally(finished);
      else send({ type: 'error', message: text(M.badMessage), fatal: false });
      return;
    }
    if (data.byteLength % 2 !== 0 || data.byteLength > MAX_FRAME_BYTES) {
      send({ type: 'error', message: text(M.badFrame), fatal: false });
      return;
    }
    const samples = new Int16Array(data.byteLength / 2);
    new Uint8Array(samples.buffer).set(data);
    for (const event of vad.push(samples)) onEvent(event);
    if (vad.seconds > maxSeconds) void end(M.tooLong).finally(finished);
    else maybePartial();
  };
  for (const frame of pending.splice(0)) handle(frame);
  if (closedEarly) closed();
  await over;
}
