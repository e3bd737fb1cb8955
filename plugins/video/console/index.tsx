import { useMemo, useState } from 'react';
import { Button, Callout, Card, FormGroup, HTMLSelect, InputGroup, Intent, ProgressBar, Radio, RadioGroup } from '@blueprintjs/core';
import { definePlugin, MediaDropZone, MediaJobScreen, useApi, useNotify, usePermission, useRefreshBefore, useTranslation, type ApiErrorInfo, downloadFile } from '@linguaport/sdk/console';
import { formatDate, formatSize } from '@linguaport/sdk/shared';
import { formatSeconds, JOB_CHANGED, NS, OPERATIONS, settingsSchema, TARGETS, type JobRow, type Operation, type Settings } from '../shared/schemas.js';

interface Setup {
  limits: Settings;
}

/** The cut's container when none is chosen: the upload's own. */
const SAME = '';

const download = (api: ReturnType<typeof useApi>, url: string, name: string) => downloadFile(api, url, name);

/** `75`, `1:15` or `1:15.5` as seconds; null when it is none of these. */
export function parseTime(text: string): number | null {
  const t = text.trim();
  if (!t) return null;
  const parts = t.split(':');
  if (parts.length > 3 || parts.some((p) => !/^\d+(\.\d+)?$/.test(p))) return null;
  return parts.reduce((total, p) => total * 60 + Number(p), 0);
}

function NewJob({ setup, onStarted }: { setup: Settings; onStarted(): void }) {
  const { t } = useTranslation(NS);
  const api = useApi();
  const { setRefreshBefore } = useRefreshBefore();
  const [operation, setOperation] = useState<Operation>('convert');
  const [to, setTo] = useState<string>('mp3');
  const [start, setStart] = useState('0');
  const [end, setEnd] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const targets = useMemo(() => TARGETS.filter((x) => operation !== 'extractAudio' || !x.video), [operation]);
  const choose = (next: Operation) => {
    setOperation(next);
    // A cut keeps the file's own format unless told otherwise; extracted sound is an audio format.
    if (next === 'cut') setTo(SAME);
    else if (to === SAME || (next === 'extractAudio' && TARGETS.find((x) => x.id === to)?.video)) setTo('mp3');
  };

  const startSeconds = parseTime(start);
  const endSeconds = parseTime(end);
  const problems: string[] = [];
  const tooBig = files.find((f) => f.size > setup.maxFileMb * 1024 * 1024);
  if (files.length > setup.maxFiles) problems.push(t('tooMany', { max: setup.maxFiles }));
  if (tooBig) problems.push(t('tooBig', { name: tooBig.name, mb: setup.maxFileMb }));
  if (files.some((f) => f.size === 0)) problems.push(t('emptyFile', { name: files.find((f) => f.size === 0)!.name }));
  if (operation === 'cut') {
    if (startSeconds === null || endSeconds === null) problems.push(t('timeFormat'));
    else if (endSeconds <= startSeconds) problems.push(t('endAfterStart'));
  }

  const submit = async () => {
    const form = new FormData();
    form.set('operation', operation);
    if (to !== SAME) form.set('to', to);
    if (operation === 'cut') {
      form.set('startSeconds', String(startSeconds));
      form.set('endSeconds', String(endSeconds));
    }
    for (const f of files) form.append('files', f);
    setRefreshBefore(true);
    setProgress(0);
    setError(null);
    try {
      await api.post('/video/upload', form, { silent: true, onUploadProgress: setProgress });
      setFiles([]);
      onStarted();
    } catch (e) {
      setError((e as ApiErrorInfo).msg);
    } finally {
      setRefreshBefore(false);
      setProgress(null);
    }
  };

  return (
    <Card style={{ display: 'grid', gap: 10 }} data-testid="video-new">
      <RadioGroup inline label={t('operation')} selectedValue={operation} onChange={(e) => choose(e.currentTarget.value as Operation)}>
        {OPERATIONS.map((o) => (
          <Radio key={o} value={o} label={t(`operations.${o}`)} data-testid={`video-operation-${o}`} />
        ))}
      </RadioGroup>
      <div style={{ display: 'flex', gap: 16, flexWrap: 'wrap', alignItems: 'flex-end' }}>
        <FormGroup label={t('to')} labelFor="video-to" style={{ margin: 0 }}>
          <HTMLSelect id="video-to" data-testid="video-to" value={to} onChange={(e) => setTo(e.currentTarget.value)}>
            {operation === 'cut' && <option value={SAME}>{t('sameFormat')}</option>}
            {targets.map((x) => (
              <option key={x.id} value={x.id}>
                {x.id.toUpperCase()} ({t(x.video ? 'videoFormat' : 'audioFormat')})
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        {operation === 'cut' && (
          <>
            <FormGroup label={t('start')} labelFor="video-start" style={{ margin: 0 }}>
              <InputGroup id="video-start" data-testid="video-start" value={start} placeholder="0:05" onChange={(e) => setStart(e.currentTarget.value)} style={{ width: 110 }} />
            </FormGroup>
            <FormGroup label={t('end')} labelFor="video-end" style={{ margin: 0 }}>
              <InputGroup id="video-end" data-testid="video-end" value={end} placeholder="1:30.5" onChange={(e) => setEnd(e.currentTarget.value)} style={{ width: 110 }} />
            </FormGroup>
          </>
        )}
      </div>
      <MediaDropZone
        testId="video"
        multiple
        accept="audio/*,video/*,.mkv,.webm,.flac,.ogg,.m4a"
        files={files}
        onFiles={setFiles}
        prompt={t('drop')}
        limits={t('limits', { files: setup.maxFiles, mb: setup.maxFileMb, duration: formatSeconds(setup.maxDurationSeconds) })}
      />
      {problems.length > 0 && files.length > 0 && <Callout intent={Intent.WARNING} data-testid="video-problems">{problems.join(' ')}</Callout>}
      {progress !== null && <ProgressBar value={progress} intent={Intent.PRIMARY} />}
      {error && <Callout intent={Intent.DANGER} data-testid="video-error">{error}</Callout>}
      <div>
        <Button intent={Intent.PRIMARY} icon="play" data-testid="video-start-job" disabled={!files.length || problems.length > 0 || progress !== null} loading={progress !== null} text={t('startJob', { count: Math.max(1, files.length) })} onClick={() => void submit()} />
      </div>
    </Card>
  );
}

/**
 * /video: audio and video conversion. The user picks an operation (convert, extract audio, cut), uploads
 * files and follows each job's progress live (pushed over the WebSocket); finished jobs are downloaded,
 * running ones cancelled, failed or cancelled ones run again, any deleted after a confirmation.
 */
export function Video() {
  const { t } = useTranslation(NS);
  const api = useApi();
  const notify = useNotify();
  const permissions = usePermission();

  const describe = (r: JobRow) => {
    if (r.operation === 'cut') return t('cutDescription', { start: formatSeconds(r.startSeconds ?? 0), end: formatSeconds(r.endSeconds ?? 0), to: r.to.toUpperCase() });
    return t(`operations.${r.operation}`) + ` → ${r.to.toUpperCase()}`;
  };

  // The list, live status, cancel, retry, delete and limits are the SDK's media-job screen.
  return (
    <MediaJobScreen<JobRow, Setup>
      base="/video"
      event={JOB_CHANGED}
      testId="video"
      t={t}
      manage={permissions.hasButton('video:manage')}
      columns={[
        { key: 'name', title: t('name') },
        { key: 'operation', title: t('operation'), render: (r) => describe(r) },
        { key: 'duration', title: t('duration'), render: (r) => formatSeconds(r.duration) },
        { key: 'size', title: t('size'), render: (r) => formatSize(r.size) },
        { key: 'createdAt', title: t('createdAt'), render: (r) => formatDate(r.createdAt) },
      ]}
      actions={(r) =>
        r.status === 'completed' && (
          <Button icon="download" intent={Intent.PRIMARY} aria-label={t('download')} title={t('download')} data-testid={`video-download-${r.id}`} onClick={() => void download(api, `/video/download/${r.id}`, r.resultName ?? r.name).catch((e: ApiErrorInfo) => notify.error(e.msg))} />
        )
      }
      searchFields={[{ name: 'operation', label: t('operation'), type: 'select', options: OPERATIONS.map((o) => ({ value: o, label: t(`operations.${o}`) })) }]}
      newJob={(setup, reload) => <NewJob setup={setup.limits} onStarted={reload} />}
      settingsSchema={settingsSchema}
      settingsFields={[
        { name: 'maxFiles', label: t('maxFiles'), type: 'number', required: true },
        { name: 'maxFileMb', label: t('maxFileMb'), type: 'number', required: true },
        { name: 'maxDurationSeconds', label: t('maxDurationSeconds'), type: 'number', required: true },
      ]}
    />
  );
}

export default definePlugin({ id: 'video', views: { Video } });
