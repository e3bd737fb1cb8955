import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, ButtonGroup, Callout, HTMLSelect, Intent, Spinner, Tag } from '@blueprintjs/core';
import { useApi, usePermission, usePlatform, useTranslation, type ApiErrorInfo } from '@linguaport/sdk/console';
import { KEYS, LIVE_PATH, type LiveMessage } from '../shared/schemas.js';
import { languageLabel, NS, type ConfigAnswer } from './common.js';
import { captureMicrophone, type Capture } from './microphone.js';

interface Line {
  utterance: number;
  text: string;
  translation: string;
  speaker: string | null;
}

type State = 'idle' | 'connecting' | 'live' | 'stopping';

/**
 * Live captions: the microphone streams to the server's socket; the partial transcript shows while the
 * person speaks, the sentence and its translation when they stop. Large type for a projector, full
 * screen, font size, one or two languages. A refused microphone shows the catalogue's microphone note.
 */
export function SimultaneousInterpretation() {
  const { t, i18n } = useTranslation(NS);
  const api = useApi();
  const permissions = usePermission();
  const { socketUrl } = usePlatform();
  const mayUse = permissions.hasButton(KEYS.use);
  const [setup, setSetup] = useState<ConfigAnswer | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [source, setSource] = useState('');
  const [target, setTarget] = useState('');
  const [fontSize, setFontSize] = useState(40);
  const [languages, setLanguages] = useState<'one' | 'two'>('two');
  const [state, setState] = useState<State>('idle');
  const [lines, setLines] = useState<Line[]>([]);
  const [partial, setPartial] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** The server's notices for this session (a configured engine that has gone). */
  const [notices, setNotices] = useState<string[]>([]);
  const socket = useRef<WebSocket | null>(null);
  const capture = useRef<Capture | null>(null);
  const stage = useRef<HTMLDivElement>(null);

  useEffect(() => {
    api.get<ConfigAnswer>('/interpretation/config', { silent: true }).then(
      (answer) => {
        setSetup(answer);
        setSource(answer.config.source);
        setTarget(answer.config.target);
        setFontSize(answer.config.caption.fontSize);
        setLanguages(answer.config.caption.languages);
      },
      (e: ApiErrorInfo) => setLoadError(e.msg),
    );
  }, [api]);

  const release = useCallback(() => {
    capture.current?.stop();
    capture.current = null;
    const s = socket.current;
    socket.current = null;
    if (s && s.readyState <= WebSocket.OPEN) s.close();
  }, []);
  useEffect(() => release, [release]);

  const start = async () => {
    setNote(null);
    setError(null);
    if (!navigator.mediaDevices?.getUserMedia) {
      setNote(t('microphoneUnavailable'));
      return;
    }
    const url = socketUrl(LIVE_PATH, { source, target });
    if (!url) return setError(t('signedOut'));
    setState('connecting');
    // The microphone first: a refusal must not leave a session behind.
    const frames: ArrayBuffer[] = [];
    try {
      capture.current = await captureMicrophone((pcm) => {
        const s = socket.current;
        if (s?.readyState === WebSocket.OPEN) s.send(pcm);
        else frames.push(pcm);
      });
    } catch (err) {
      const name = (err as { name?: string }).name;
      setNote(name === 'NotAllowedError' || name === 'SecurityError' ? t('microphoneRefused') : t('microphoneUnavailable'));
      setState('idle');
      return;
    }
    const s = new WebSocket(url);
    s.binaryType = 'arraybuffer';
    socket.current = s;
    s.onmessage = (event) => {
      const m = JSON.parse(String(event.data)) as LiveMessage;
      if (m.type === 'ready') {
        setLines([]);
        setPartial('');
        setNotices([]);
        setState('live');
        // What the microphone gave while the socket opened is late by now: start from here.
        frames.length = 0;
      } else if (m.type === 'partial') setPartial(m.text);
      else if (m.type === 'final') {
        setPartial('');
        if (m.text) setLines((l) => [...l.slice(-19), { utterance: m.utterance, text: m.text, translation: m.translation, speaker: m.speaker }]);
      } else if (m.type === 'error') {
        setError(m.message);
      } else if (m.type === 'notice') {
        setNotices((n) => (n.includes(m.message) ? n : [...n, m.message]));
      }
    };
    s.onclose = (event) => {
      if (socket.current === s || socket.current === null) {
        capture.current?.stop();
        capture.current = null;
        socket.current = null;
        setState('idle');
        setPartial('');
      }
      const reason = { 4401: t('closed.session'), 4403: t('closed.permission'), 4404: t('closed.unavailable') }[event.code];
      if (reason) setError(reason);
    };
  };

  const stop = () => {
    setState('stopping');
    const s = socket.current;
    capture.current?.stop();
    capture.current = null;
    if (s?.readyState === WebSocket.OPEN) s.send(JSON.stringify({ type: 'stop' }));
    else release();
  };

  const fullScreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void stage.current?.requestFullscreen?.();
  };

  if (loadError) return <Callout intent={Intent.DANGER}>{loadError}</Callout>;
  if (!setup) return <Spinner />;
  const dark = setup.config.caption.theme === 'dark';
  const last = lines[lines.length - 1];
  const earlier = lines.slice(-4, -1);
  const sources = setup.speechLanguages;
  const targets = setup.languages.find((l) => l.code === source || l.code.split('-')[0] === source.split('-')[0])?.targets ?? [];
  const busy = state !== 'idle';

  return (
    <div style={{ display: 'grid', gap: 12 }}>
      <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
        <HTMLSelect aria-label={t('source')} value={source} disabled={busy} onChange={(e) => setSource(e.currentTarget.value)} data-testid="interpretation-source">
          {(sources.includes(source) ? sources : [source, ...sources]).map((c) => (
            <option key={c} value={c}>{languageLabel(c, i18n.language)}</option>
          ))}
        </HTMLSelect>
        <span>→</span>
        <HTMLSelect aria-label={t('target')} value={target} disabled={busy} onChange={(e) => setTarget(e.currentTarget.value)} data-testid="interpretation-target">
          {(targets.includes(target) ? targets : [target, ...targets]).map((c) => (
            <option key={c} value={c}>{languageLabel(c, i18n.language)}</option>
          ))}
        </HTMLSelect>
        {state === 'idle' ? (
          <Button icon="microphone" intent={Intent.PRIMARY} text={t('start')} disabled={!mayUse || !source || !target} onClick={() => void start()} data-testid="interpretation-start" />
        ) : (
          <Button icon="stop" intent={Intent.DANGER} text={t('stop')} disabled={state === 'stopping'} onClick={stop} data-testid="interpretation-stop" />
        )}
        {state === 'connecting' && <Spinner size={16} />}
        {state === 'live' && (
          <Tag intent={Intent.SUCCESS} icon="record" data-testid="interpretation-live">
            {t('live')}
          </Tag>
        )}
        <ButtonGroup style={{ marginLeft: 'auto' }}>
          <Button icon="minus" aria-label={t('smaller')} onClick={() => setFontSize((s) => Math.max(16, s - 4))} />
          <Button text={`${fontSize}px`} disabled />
          <Button icon="plus" aria-label={t('larger')} onClick={() => setFontSize((s) => Math.min(120, s + 4))} />
        </ButtonGroup>
        <HTMLSelect aria-label={t('shown')} value={languages} onChange={(e) => setLanguages(e.currentTarget.value as 'one' | 'two')} data-testid="interpretation-languages">
          <option value="two">{t('twoLanguages')}</option>
          <option value="one">{t('oneLanguage')}</option>
        </HTMLSelect>
        <Button icon="fullscreen" text={t('fullScreen')} onClick={fullScreen} data-testid="interpretation-fullscreen" />
      </div>
      {!mayUse && <Callout intent={Intent.WARNING}>{t('noUsePermission')}</Callout>}
      {note && (
        <Callout intent={Intent.WARNING} data-testid="interpretation-microphone-note">
          {note}
        </Callout>
      )}
      {notices.map((n) => (
        <Callout key={n} intent={Intent.WARNING} data-testid="interpretation-notice">
          {n}
        </Callout>
      ))}
      {error && (
        <Callout intent={Intent.DANGER} data-testid="interpretation-error">
          {error}
        </Callout>
      )}
      <div
        ref={stage}
        data-testid="interpretation-captions"
        style={{ background: dark ? '#111418' : '#ffffff', color: dark ? '#f6f7f9' : '#1c2127', minHeight: 360, padding: '24px 32px', borderRadius: 4, display: 'flex', flexDirection: 'column', justifyContent: 'flex-end', gap: 16, fontSize, lineHeight: 1.25, overflow: 'hidden' }}
      >
        {lines.length === 0 && !partial && <div style={{ opacity: 0.5, fontSize: Math.max(16, fontSize * 0.5) }}>{busy ? t('listening') : t('idleHint')}</div>}
        {earlier.map((l) => (
          <div key={l.utterance} style={{ opacity: 0.45, fontSize: fontSize * 0.6 }}>
            {languages === 'two' && <div>{l.text}</div>}
            <div>{l.translation || l.text}</div>
          </div>
        ))}
        {last && (
          <div data-testid="interpretation-final">
            {last.speaker && <div style={{ fontSize: fontSize * 0.45, opacity: 0.7 }} data-testid="interpretation-speaker">{last.speaker}</div>}
            {languages === 'two' && <div data-testid="interpretation-final-source" style={{ opacity: 0.75, fontSize: fontSize * 0.75 }}>{last.text}</div>}
            <div data-testid="interpretation-final-target" style={{ fontWeight: 600 }}>{last.translation || last.text}</div>
          </div>
        )}
        {partial && (
          <div data-testid="interpretation-partial" style={{ fontStyle: 'italic', opacity: 0.8, fontSize: fontSize * 0.75 }}>
            {partial}…
          </div>
        )}
      </div>
    </div>
  );
}
