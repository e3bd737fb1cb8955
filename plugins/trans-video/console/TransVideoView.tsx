import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, ButtonGroup, Callout, Card, H4, HTMLSelect, Intent, NonIdealState, ProgressBar, Spinner, Tag, TextArea } from '@blueprintjs/core';
import { useApi, useBus, useNotify, usePlatform, useTranslation, type ApiErrorInfo, type ViewProps } from '@linguaport/sdk/console';
import { formatSeconds, JOB_CHANGED, NS, SUBTITLE_FORMATS, TRACKS, type CueRow, type JobRow, type Track } from '../shared/schemas.js';
import { download, languageLabel, queryId } from './common.js';

type Shown = Track | 'off';

/** Object URLs of the subtitle tracks (as WebVTT from the server), revoked when replaced. */
function useObjectUrl(): [string | null, (blob: Blob | null) => void] {
  const [url, setUrl] = useState<string | null>(null);
  const set = useCallback((blob: Blob | null) => {
    setUrl((old) => {
      if (old) URL.revokeObjectURL(old);
      return blob ? URL.createObjectURL(blob) : null;
    });
  }, []);
  useEffect(() => () => set(null), [set]);
  return [url, set];
}

/**
 * /transVideoView?id=: the media plays with the source and target subtitles (switchable: source,
 * target, both, off) and the transcript scrolls along, the line being spoken highlighted; clicking a
 * line's time seeks to it. Correcting a line's recognised text translates it again (a corrected
 * translation is kept as written) and the subtitles update at once. Downloads: SRT or VTT of each
 * track, the transcript, and the video with burned-in subtitles, which can be (re)made here.
 */
export function TransVideoView({ query }: ViewProps) {
  const { t, i18n } = useTranslation(NS);
  const api = useApi();
  const notify = useNotify();
  const { navigate } = usePlatform();
  const id = queryId(query);
  const [job, setJob] = useState<JobRow | null>(null);
  const [cues, setCues] = useState<CueRow[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [sourceVtt, setSourceVtt] = useObjectUrl();
  const [targetVtt, setTargetVtt] = useObjectUrl();
  const [bothVtt, setBothVtt] = useObjectUrl();
  const [version, setVersion] = useState(0);
  const [shown, setShown] = useState<Shown>('target');
  const [now, setNow] = useState(0);
  const [editing, setEditing] = useState<{ index: number; source: string; target: string; field: 'source' | 'target' } | null>(null);
  const [saving, setSaving] = useState(false);
  const [burnTrack, setBurnTrack] = useState<Track>('target');
  const player = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  const list = useRef<HTMLDivElement>(null);

  const loadJob = useCallback(async () => {
    if (!id) return;
    try {
      const r = await api.get<{ job: JobRow; cues: CueRow[] }>(`/transVideo/get/${id}`, { silent: true });
      setJob(r.job);
      setCues(r.cues);
      setError(null);
    } catch (e) {
      setError((e as ApiErrorInfo).msg);
    }
  }, [api, id]);

  const loadTracks = useCallback(async () => {
    if (!id) return;
    const vtt = (track: Track) => api.get<Blob>(`/transVideo/subtitles/${id}`, { params: { format: 'vtt', track }, responseType: 'blob', silent: true });
    const [s, tg, b] = await Promise.all([vtt('source'), vtt('target'), vtt('bilingual')]);
    setSourceVtt(s);
    setTargetVtt(tg);
    setBothVtt(b);
    setVersion((v) => v + 1);
  }, [api, id, setSourceVtt, setTargetVtt, setBothVtt]);

  useEffect(() => {
    void loadJob();
  }, [loadJob]);

  // The player reads the media itself (the route takes the session cookie), asking for byte ranges as
  // it plays and seeks, so playing starts before the whole file has arrived.
  const media = id && job?.status === 'completed' ? `/api/transVideo/media/${id}` : null;
  // A player cannot say why it failed: the same request through the API client brings the server's message.
  const mediaFailed = useCallback(() => {
    if (!id) return;
    api.get(`/transVideo/media/${id}`, { headers: { Range: 'bytes=0-0' }, responseType: 'blob', silent: true }).catch((e: ApiErrorInfo) => setError(e.msg));
  }, [api, id]);

  useEffect(() => {
    if (!id || job?.status !== 'completed') return;
    void loadTracks().catch((e: ApiErrorInfo) => setError(e.msg));
    // The tracks are fetched once per job, and again after each correction (loadTracks).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, id, job?.status]);

  useBus<JobRow>(
    JOB_CHANGED,
    useCallback((event) => {
      if (event.payload.id === id) setJob(event.payload);
    }, [id]),
  );

  // The chosen track shows; the others hide (re-applied when the track elements are made again).
  useEffect(() => {
    const el = player.current;
    if (!el) return;
    const apply = () => {
      for (const track of Array.from(el.textTracks)) track.mode = track.label === shown ? 'showing' : 'hidden';
    };
    apply();
    el.textTracks.addEventListener?.('addtrack', apply);
    return () => el.textTracks.removeEventListener?.('addtrack', apply);
  }, [shown, version, media]);

  const current = cues.find((c) => now >= c.start && now <= c.end + 0.05)?.index ?? null;
  useEffect(() => {
    if (current === null) return;
    list.current?.querySelector(`[data-index="${current}"]`)?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [current]);

  const seek = (seconds: number) => {
    if (player.current) {
      player.current.currentTime = seconds;
      void player.current.play().catch(() => undefined);
    }
  };

  const save = async () => {
    if (!editing || !id) return;
    const before = cues.find((c) => c.index === editing.index)!;
    const body = editing.field === 'source' ? { source: editing.source } : { target: editing.target };
    if ((editing.field === 'source' && editing.source === before.source) || (editing.field === 'target' && editing.target === before.target)) {
      setEditing(null);
      return;
    }
    setSaving(true);
    try {
      const cue = await api.put<CueRow>(`/transVideo/cue/${id}/${editing.index}`, body, { silent: true });
      setCues((list) => list.map((c) => (c.index === cue.index ? cue : c)));
      setEditing(null);
      await loadTracks();
      notify.success(t('lineSaved'));
    } catch (e) {
      notify.error((e as ApiErrorInfo).msg);
    } finally {
      setSaving(false);
    }
  };

  const burn = async () => {
    try {
      setJob(await api.post<JobRow>(`/transVideo/burn/${id}`, { track: burnTrack }, { silent: true }));
    } catch (e) {
      notify.error((e as ApiErrorInfo).msg);
    }
  };

  const back = <Button icon="arrow-left" onClick={() => navigate('/transVideo')}>{t('backToList')}</Button>;
  if (!id) return <NonIdealState icon="video" title={t('noJobChosen')} action={back} />;
  if (error) return <Callout intent={Intent.DANGER} style={{ margin: 16 }} data-testid="tv-preview-error">{error} {back}</Callout>;
  if (!job) return <div style={{ display: 'grid', placeItems: 'center', height: 200 }}><Spinner /></div>;
  if (job.status !== 'completed') return <NonIdealState icon="time" title={t('notFinished')} description={t(`states.${job.status}`)} action={back} />;

  const base = job.name.replace(/\.[^.]+$/, '') || 'media';
  const langOf = (track: Track) => (track === 'source' ? job.sourceLanguage : track === 'target' ? job.targetLanguage : `${job.sourceLanguage}-${job.targetLanguage}`);
  const save$ = (url: string, name: string) => void download(api, url, name).catch((e: ApiErrorInfo) => notify.error(e.msg));
  const trackEls = [
    sourceVtt && <track key={`s${version}`} kind="subtitles" label="source" srcLang={job.sourceLanguage} src={sourceVtt} />,
    targetVtt && <track key={`t${version}`} kind="subtitles" label="target" srcLang={job.targetLanguage} src={targetVtt} />,
    bothVtt && <track key={`b${version}`} kind="subtitles" label="bilingual" src={bothVtt} />,
  ];

  return (
    <div data-testid="tv-preview" style={{ display: 'flex', flexDirection: 'column', gap: 12, padding: 16 }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 8, flexWrap: 'wrap' }}>
        <Button icon="arrow-left" minimal onClick={() => navigate('/transVideo')} aria-label={t('backToList')} />
        <H4 style={{ margin: 0 }}>{job.name}</H4>
        <Tag minimal>{`${languageLabel(job.sourceLanguage, i18n.language)} → ${languageLabel(job.targetLanguage, i18n.language)}`}</Tag>
        <Tag minimal>{formatSeconds(job.duration)}</Tag>
      </div>
      <div style={{ display: 'grid', gridTemplateColumns: 'minmax(320px, 3fr) minmax(280px, 2fr)', gap: 12, alignItems: 'start' }}>
        <Card style={{ display: 'grid', gap: 8 }}>
          {!media ? (
            <Spinner size={24} />
          ) : job.hasVideo ? (
            <video ref={player} data-testid="tv-player" src={media} controls preload="metadata" onError={mediaFailed} style={{ width: '100%', background: '#000' }} onTimeUpdate={(e) => setNow(e.currentTarget.currentTime)}>
              {trackEls}
            </video>
          ) : (
            <audio ref={player} data-testid="tv-player" src={media} controls preload="metadata" onError={mediaFailed} style={{ width: '100%' }} onTimeUpdate={(e) => setNow(e.currentTarget.currentTime)}>
              {trackEls}
            </audio>
          )}
          {!job.hasVideo && current !== null && (
            <div data-testid="tv-audio-caption" style={{ textAlign: 'center', fontSize: 16 }}>
              {shown !== 'off' && (shown === 'bilingual' ? `${cues.find((c) => c.index === current)?.source} / ${cues.find((c) => c.index === current)?.target}` : cues.find((c) => c.index === current)?.[shown])}
            </div>
          )}
          <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
            <span>{t('subtitlesShown')}</span>
            <ButtonGroup data-testid="tv-tracks">
              {([...TRACKS, 'off'] as Shown[]).map((s) => (
                <Button key={s} data-testid={`tv-track-${s}`} active={shown === s} text={s === 'off' ? t('off') : t(`tracks.${s}`)} onClick={() => setShown(s)} />
              ))}
            </ButtonGroup>
          </div>
          <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center' }}>
            <span>{t('downloads')}</span>
            {TRACKS.map((track) =>
              SUBTITLE_FORMATS.map((format) => (
                <Button key={`${track}-${format}`} small icon="download" data-testid={`tv-download-${track}-${format}`} text={`${t(`tracks.${track}`)} ${format.toUpperCase()}`} onClick={() => save$(`/transVideo/subtitles/${id}?format=${format}&track=${track}`, `${base}.${langOf(track)}.${format}`)} />
              )),
            )}
            <Button small icon="document" data-testid="tv-download-transcript" text={t('transcript')} onClick={() => save$(`/transVideo/transcript/${id}`, `${base}.transcript.txt`)} />
          </div>
          {job.hasVideo && (
            <div style={{ display: 'grid', gap: 6 }} data-testid="tv-burn-panel">
              <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
                <span>{t('burnIn')}</span>
                <HTMLSelect value={burnTrack} data-testid="tv-burn-track" onChange={(e) => setBurnTrack(e.currentTarget.value as Track)}>
                  {TRACKS.map((track) => (
                    <option key={track} value={track}>{t(`tracks.${track}`)}</option>
                  ))}
                </HTMLSelect>
                <Button icon="film" data-testid="tv-burn-start" disabled={job.burnStatus === 'queued' || job.burnStatus === 'running'} text={job.burnStatus === 'completed' ? t('burnAgain') : t('burn')} onClick={() => void burn()} />
                {job.burnStatus === 'completed' && (
                  <Button icon="download" intent={Intent.PRIMARY} data-testid="tv-download-burned" text={t('downloadBurned')} onClick={() => save$(`/transVideo/burned/${id}`, `${base}.${langOf(job.burnTrack ?? 'target')}.mp4`)} />
                )}
                <span data-testid="tv-burn-state" data-status={job.burnStatus}>{job.burnStatus !== 'none' && t('burnState', { state: t(`states.${job.burnStatus}`) })}</span>
              </div>
              {job.burnStatus === 'running' && <ProgressBar value={job.burnProgress} intent={Intent.PRIMARY} />}
              {job.burnStatus === 'failed' && job.burnError && <Callout intent={Intent.DANGER}>{job.burnError}</Callout>}
              {job.burnStale && job.burnStatus === 'completed' && <Callout intent={Intent.WARNING} data-testid="tv-burn-stale">{t('burnStale')}</Callout>}
            </div>
          )}
        </Card>
        <Card style={{ display: 'grid', gap: 6 }}>
          <H4 style={{ margin: 0 }}>{t('transcript')}</H4>
          {cues.length === 0 ? (
            <NonIdealState icon="volume-off" title={t('noSpeech')} />
          ) : (
            <div ref={list} data-testid="tv-transcript" style={{ maxHeight: 480, overflowY: 'auto', display: 'grid', gap: 4 }}>
              {cues.map((c) => (
                <div
                  key={c.index}
                  data-index={c.index}
                  data-testid={`tv-cue-${c.index}`}
                  data-current={current === c.index ? 'true' : undefined}
                  style={{ padding: 6, borderRadius: 4, background: current === c.index ? 'rgba(45,114,210,0.15)' : undefined }}
                >
                  <div style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
                    <a role="link" onClick={() => seek(c.start)} style={{ fontSize: 12 }}>{`${formatSeconds(c.start)} – ${formatSeconds(c.end)}`}</a>
                    {c.edited && <Tag minimal intent={Intent.SUCCESS}>{t('edited')}</Tag>}
                    {editing?.index !== c.index && (
                      <>
                        <Button small minimal icon="edit" data-testid={`tv-edit-${c.index}`} aria-label={t('correctSource')} title={t('correctSource')} onClick={() => setEditing({ index: c.index, source: c.source, target: c.target, field: 'source' })} />
                        <Button small minimal icon="translate" data-testid={`tv-edit-target-${c.index}`} aria-label={t('correctTarget')} title={t('correctTarget')} onClick={() => setEditing({ index: c.index, source: c.source, target: c.target, field: 'target' })} />
                      </>
                    )}
                  </div>
                  {editing?.index === c.index ? (
                    <div style={{ display: 'grid', gap: 4 }}>
                      <TextArea
                        fill
                        autoFocus
                        data-testid="tv-edit-text"
                        aria-label={editing.field === 'source' ? t('correctSource') : t('correctTarget')}
                        value={editing.field === 'source' ? editing.source : editing.target}
                        onChange={(e) => setEditing({ ...editing, [editing.field]: e.currentTarget.value })}
                      />
                      <div style={{ display: 'flex', gap: 6 }}>
                        <Button small intent={Intent.PRIMARY} data-testid="tv-edit-save" loading={saving} text={editing.field === 'source' ? t('saveAndTranslate') : t('save')} onClick={() => void save()} />
                        <Button small text={t('cancelEdit')} onClick={() => setEditing(null)} />
                      </div>
                      {editing.field === 'target' && <div data-testid={`tv-cue-source-${c.index}`}>{c.source}</div>}
                    </div>
                  ) : (
                    <>
                      <div data-testid={`tv-cue-source-${c.index}`}>{c.source}</div>
                      <div data-testid={`tv-cue-target-${c.index}`} style={{ color: '#2d72d2' }}>{c.target}</div>
                    </>
                  )}
                </div>
              ))}
            </div>
          )}
        </Card>
      </div>
    </div>
  );
}
