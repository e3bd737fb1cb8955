import { useCallback, useEffect, useRef, useState, type InputHTMLAttributes } from 'react';
import { Button, Callout, Card, Dialog, DialogBody, DialogFooter, FileInput, FormGroup, H5, HTMLSelect, HTMLTable, InputGroup, Intent, Spinner, Tag } from '@blueprintjs/core';
import { PageHeader, ConfirmDialog, definePlugin, PagedTable, SearchBar, useApi, usePermission, useTranslation, type ApiErrorInfo, type PageResult } from '@linguaport/sdk/console';
import { formatDate } from '@linguaport/sdk/shared';
import { KEYS, type IdentifyAnswer, type SpeakerView, type VerifyAnswer } from '../shared/schemas.js';

interface Paged<T> {
  records: T[];
  total: number;
}
interface ModelStatus {
  departmentId: number;
  threshold: number;
  status: 'idle' | 'training' | 'failed';
  upToDate: boolean;
  trainedAt: string | null;
  error: string | null;
  method: string | null;
  currentMethod: string | null;
  methodReady: boolean;
}

const MAX_FILES = 5;
const MAX_MB = 20;
const AUDIO_ACCEPT = 'audio/*,video/*,.wav,.mp3,.m4a,.ogg,.oga,.opus,.flac,.webm,.aac,.amr,.wma,.mp4';

/**
 * Records from the microphone with MediaRecorder; the recording comes back as a File. A refused
 * permission (or no microphone, or a page that is not secure) shows the catalogue's microphone note.
 */
function Recorder({ onRecorded, disabled }: { onRecorded(file: File): void; disabled?: boolean }) {
  const { t } = useTranslation();
  const [recording, setRecording] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const [seconds, setSeconds] = useState(0);
  const recorder = useRef<MediaRecorder | null>(null);
  const timer = useRef<number | null>(null);
  const count = useRef(0);
  useEffect(
    () => () => {
      if (timer.current) window.clearInterval(timer.current);
      recorder.current?.stream.getTracks().forEach((track) => track.stop());
    },
    [],
  );
  const start = async () => {
    setRefused(null);
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') {
      setRefused(t('microphoneUnavailable'));
      return;
    }
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const chunks: Blob[] = [];
      const r = new MediaRecorder(stream);
      r.ondataavailable = (e) => {
        if (e.data.size) chunks.push(e.data);
      };
      r.onstop = () => {
        stream.getTracks().forEach((track) => track.stop());
        const type = r.mimeType || 'audio/webm';
        const ext = type.includes('ogg') ? 'ogg' : type.includes('mp4') ? 'm4a' : 'webm';
        count.current += 1;
        onRecorded(new File(chunks, `${t('recordingName')}-${count.current}.${ext}`, { type }));
      };
      recorder.current = r;
      r.start();
      setSeconds(0);
      timer.current = window.setInterval(() => setSeconds((s) => s + 1), 1000);
      setRecording(true);
    } catch (err) {
      const name = (err as { name?: string }).name;
      setRefused(name === 'NotAllowedError' || name === 'SecurityError' ? t('microphoneRefused') : t('microphoneUnavailable'));
    }
  };
  const stop = () => {
    if (timer.current) window.clearInterval(timer.current);
    recorder.current?.stop();
    recorder.current = null;
    setRecording(false);
  };
  return (
    <div style={{ display: 'grid', gap: 6 }}>
      <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
        {recording ? (
          <Button icon="stop" intent={Intent.DANGER} text={t('stopRecording', { seconds })} onClick={stop} data-testid="voiceprint-record-stop" />
        ) : (
          <Button icon="record" text={t('record')} disabled={disabled} onClick={() => void start()} data-testid="voiceprint-record" />
        )}
        {recording && <Spinner size={16} />}
      </div>
      {refused && (
        <Callout intent={Intent.WARNING} data-testid="voiceprint-microphone-note">
          {refused}
        </Callout>
      )}
    </div>
  );
}

/** Files chosen or recorded, with a way to take one out again. */
function FileList({ files, onRemove }: { files: File[]; onRemove(i: number): void }) {
  const { t } = useTranslation();
  if (!files.length) return <p className="bp6-text-muted">{t('noFilesYet')}</p>;
  return (
    <HTMLTable compact style={{ width: '100%' }}>
      <tbody>
        {files.map((f, i) => (
          <tr key={`${f.name}-${i}`}>
            <td>{f.name}</td>
            <td>{(f.size / 1024).toFixed(0)} KB</td>
            <td style={{ textAlign: 'right' }}>
              <Button small minimal icon="cross" aria-label={t('removeFile', { name: f.name })} onClick={() => onRemove(i)} />
            </td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}

/** Enrol a speaker (name + recordings), or add recordings to one (`speaker` given). */
function EnrolDialog({ speaker, isOpen, onClose, onDone }: { speaker: SpeakerView | null; isOpen: boolean; onClose(): void; onDone(): void }) {
  const { t } = useTranslation();
  const api = useApi();
  const [name, setName] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (isOpen) {
      setName('');
      setFiles([]);
      setError(null);
    }
  }, [isOpen]);
  const tooBig = files.find((f) => f.size > MAX_MB * 1024 * 1024);
  const tooMany = files.length > MAX_FILES;
  const submit = async () => {
    const form = new FormData();
    if (speaker) form.set('speakerId', String(speaker.id));
    else form.set('name', name.trim());
    for (const f of files) form.append('files', f);
    setBusy(true);
    setError(null);
    try {
      await api.post(speaker ? '/voiceprint/speaker/recording/add' : '/voiceprint/speaker/enrol', form, { silent: true });
      onDone();
      onClose();
    } catch (err) {
      setError((err as ApiErrorInfo).msg);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog isOpen={isOpen} onClose={onClose} canOutsideClickClose={false} title={speaker ? t('addRecordingsTo', { name: speaker.name }) : t('enrol')} style={{ width: 600 }}>
      <DialogBody>
        {!speaker && (
          <FormGroup label={t('name')} labelFor="voiceprint-name" labelInfo="*">
            <InputGroup id="voiceprint-name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
          </FormGroup>
        )}
        <p>{t('enrolHelp')}</p>
        <FormGroup label={t('recordings')}>
          <FileInput
            fill
            text={t('chooseFiles')}
            inputProps={{ multiple: true, accept: AUDIO_ACCEPT, 'aria-label': t('chooseFiles') } as InputHTMLAttributes<HTMLInputElement>}
            onInputChange={(e) => {
              const chosen = Array.from((e.target as HTMLInputElement).files ?? []);
              setFiles((fs) => [...fs, ...chosen]);
              (e.target as HTMLInputElement).value = '';
            }}
          />
        </FormGroup>
        <Recorder onRecorded={(f) => setFiles((fs) => [...fs, f])} disabled={busy} />
        <FileList files={files} onRemove={(i) => setFiles((fs) => fs.filter((_, j) => j !== i))} />
        {tooMany && <Callout intent={Intent.WARNING}>{t('atMostFiles', { count: MAX_FILES })}</Callout>}
        {tooBig && <Callout intent={Intent.WARNING}>{t('tooBig', { name: tooBig.name })}</Callout>}
        {error && <Callout intent={Intent.DANGER} data-testid="voiceprint-enrol-error">{error}</Callout>}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('cancel')} onClick={onClose} />
            <Button intent={Intent.PRIMARY} loading={busy} disabled={!files.length || tooMany || !!tooBig || (!speaker && !name.trim())} text={speaker ? t('addRecordings') : t('enrol')} onClick={() => void submit()} data-testid="voiceprint-enrol-submit" />
          </>
        }
      />
    </Dialog>
  );
}

/** One recording to test: a chosen file or a fresh recording. */
function ProbeInput({ file, onFile, testId }: { file: File | null; onFile(f: File | null): void; testId: string }) {
  const { t } = useTranslation();
  return (
    <div style={{ display: 'grid', gap: 6 }}>
      <FileInput
        fill
        text={file?.name ?? t('chooseFile')}
        inputProps={{ accept: AUDIO_ACCEPT, 'aria-label': t('chooseFile'), 'data-testid': testId } as InputHTMLAttributes<HTMLInputElement>}
        onInputChange={(e) => onFile((e.target as HTMLInputElement).files?.[0] ?? null)}
      />
      <Recorder onRecorded={onFile} />
    </div>
  );
}

const score = (n: number) => n.toFixed(3);

function IdentifyPanel({ departmentId }: { departmentId?: number }) {
  const { t } = useTranslation();
  const api = useApi();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<IdentifyAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    const form = new FormData();
    form.set('file', file!);
    if (departmentId) form.set('departmentId', String(departmentId));
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      setResult(await api.post<IdentifyAnswer>('/voiceprint/identify', form, { silent: true }));
    } catch (err) {
      setError((err as ApiErrorInfo).msg);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card data-testid="voiceprint-identify">
      <H5>{t('identify')}</H5>
      <p>{t('identifyHelp')}</p>
      <ProbeInput file={file} onFile={setFile} testId="voiceprint-identify-file" />
      <Button style={{ marginTop: 8 }} intent={Intent.PRIMARY} icon="search" loading={busy} disabled={!file} text={t('identifyRun')} onClick={() => void run()} />
      {error && <Callout intent={Intent.DANGER}>{error}</Callout>}
      {result && (
        <div style={{ marginTop: 8 }} data-testid="voiceprint-identify-result">
          <Callout intent={result.speaker ? Intent.SUCCESS : Intent.WARNING}>
            {result.speaker ? t('identified', { name: result.speaker.name, score: score(result.speaker.score) }) : t('unknownSpeaker', { threshold: result.threshold })}
          </Callout>
          <HTMLTable compact striped style={{ width: '100%' }}>
            <thead>
              <tr>
                <th>#</th>
                <th>{t('name')}</th>
                <th>{t('score')}</th>
              </tr>
            </thead>
            <tbody>
              {result.candidates.slice(0, 10).map((c, i) => (
                <tr key={c.speakerId}>
                  <td>{i + 1}</td>
                  <td>{c.name}</td>
                  <td>
                    {score(c.score)} {c.score >= result.threshold && <Tag minimal intent={Intent.SUCCESS}>{t('aboveThreshold')}</Tag>}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          <p className="bp6-text-muted">{t('thresholdNote', { method: result.method, threshold: result.threshold, seconds: result.speechSeconds })}</p>
        </div>
      )}
    </Card>
  );
}

function VerifyPanel({ speakers }: { speakers: SpeakerView[] }) {
  const { t } = useTranslation();
  const api = useApi();
  const [speakerId, setSpeakerId] = useState<number | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<VerifyAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const chosen = speakerId ?? speakers[0]?.id ?? null;
  const run = async () => {
    const form = new FormData();
    form.set('speakerId', String(chosen));
    form.set('file', file!);
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      setResult(await api.post<VerifyAnswer>('/voiceprint/verify', form, { silent: true }));
    } catch (err) {
      setError((err as ApiErrorInfo).msg);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card data-testid="voiceprint-verify">
      <H5>{t('verify')}</H5>
      <p>{t('verifyHelp')}</p>
      {speakers.length ? (
        <FormGroup label={t('claimedSpeaker')} labelFor="voiceprint-claimed">
          <HTMLSelect id="voiceprint-claimed" fill value={chosen ?? ''} onChange={(e) => setSpeakerId(Number(e.target.value))} options={speakers.map((s) => ({ value: s.id, label: s.name }))} />
        </FormGroup>
      ) : (
        <p className="bp6-text-muted">{t('noSpeakers')}</p>
      )}
      <ProbeInput file={file} onFile={setFile} testId="voiceprint-verify-file" />
      <Button style={{ marginTop: 8 }} intent={Intent.PRIMARY} icon="endorsed" loading={busy} disabled={!file || chosen == null} text={t('verifyRun')} onClick={() => void run()} />
      {error && <Callout intent={Intent.DANGER}>{error}</Callout>}
      {result && (
        <Callout style={{ marginTop: 8 }} intent={result.accepted ? Intent.SUCCESS : Intent.DANGER} data-testid="voiceprint-verify-result">
          {result.accepted ? t('accepted', { name: result.name, score: score(result.score), threshold: result.threshold }) : t('rejected', { name: result.name, score: score(result.score), threshold: result.threshold })}
        </Callout>
      )}
    </Card>
  );
}

/** Ready under the department's current method, waiting for its training, or needing a new recording (enrolled before recordings were kept as audio). */
function SpeakerState({ speaker }: { speaker: SpeakerView }) {
  const { t } = useTranslation();
  if (speaker.state === 'ready') return <Tag minimal intent={Intent.SUCCESS}>{t('ready')}</Tag>;
  if (speaker.state === 'needsRecording') {
    return (
      <Tag minimal intent={Intent.WARNING} icon="warning-sign" title={t('needsRecordingHelp')}>
        {t('needsRecording')}
      </Tag>
    );
  }
  return <Tag minimal intent={Intent.PRIMARY}>{t('training')}</Tag>;
}

/** `/voiceprintRecognition`: the department's speakers, enrolment, identification and verification. */
function VoiceprintRecognition() {
  const { t } = useTranslation();
  const api = useApi();
  const perms = usePermission();
  const mayEnrol = perms.hasButton(KEYS.enrol);
  const mayDelete = perms.hasButton(KEYS.delete);
  const [name, setName] = useState('');
  const [refresh, setRefresh] = useState(0);
  const [status, setStatus] = useState<ModelStatus | null>(null);
  const [statusError, setStatusError] = useState<string | null>(null);
  const [enrolling, setEnrolling] = useState(false);
  const [adding, setAdding] = useState<SpeakerView | null>(null);
  const [removing, setRemoving] = useState<SpeakerView | null>(null);
  const [speakers, setSpeakers] = useState<SpeakerView[]>([]);
  const loadStatus = useCallback(
    () =>
      api.get<ModelStatus>('/voiceprint/status', { silent: true }).then(
        (s) => {
          setStatus(s);
          setStatusError(null);
          return s;
        },
        (err: ApiErrorInfo) => {
          setStatusError(err.msg);
          return null;
        },
      ),
    [api],
  );
  const loadSpeakers = useCallback(() => api.get<Paged<SpeakerView>>('/voiceprint/speaker/list', { params: { pageSize: 200 }, silent: true }).then((p) => setSpeakers(p.records), () => setSpeakers([])), [api]);
  useEffect(() => {
    void loadStatus();
    void loadSpeakers();
  }, [loadStatus, loadSpeakers, refresh]);
  // While the department's model trains (or a speaker waits for it), look again every two seconds;
  // once it is done the list is read again for its ready marks.
  const waiting = status?.status === 'training' || (status?.status === 'idle' && status.methodReady && speakers.some((s) => s.state === 'training'));
  useEffect(() => {
    if (!waiting) return;
    const id = window.setInterval(() => {
      void Promise.all([loadStatus(), api.get<Paged<SpeakerView>>('/voiceprint/speaker/list', { params: { pageSize: 200 }, silent: true }).catch(() => null)]).then(([s, list]) => {
        if (s && s.status !== 'training' && (!list || list.records.every((r) => r.state !== 'training'))) setRefresh((n) => n + 1);
      });
    }, 2000);
    return () => window.clearInterval(id);
  }, [waiting, loadStatus, api]);
  const changed = () => setRefresh((n) => n + 1);
  return (
    <div data-testid="voiceprint-view" style={{ padding: 20, display: 'grid', gap: 12 }}>
      <PageHeader title={t('title')} />
      <div data-testid="voiceprint-status">
        {statusError ? (
          <Callout intent={Intent.DANGER}>{statusError}</Callout>
        ) : !status ? (
          <Spinner size={16} />
        ) : status.status === 'training' ? (
          <Tag intent={Intent.PRIMARY} icon="refresh">{t('modelTraining')}</Tag>
        ) : status.status === 'failed' ? (
          <Callout intent={Intent.DANGER}>{t('modelFailed', { error: status.error ?? '' })}</Callout>
        ) : (
          <Tag minimal intent={Intent.SUCCESS}>{status.trainedAt ? t('modelReady', { at: formatDate(status.trainedAt) }) : t('modelEmpty')}</Tag>
        )}
        {status && (status.method ?? status.currentMethod) && (
          <Tag minimal style={{ marginLeft: 8 }} data-testid="voiceprint-method">
            {t('methodInUse')}
            <code>{status.method ?? status.currentMethod}</code>
            {t('methodThreshold', { threshold: status.threshold })}
          </Tag>
        )}
        {status && !status.currentMethod && (
          <Callout intent={Intent.WARNING} style={{ marginTop: 8 }} data-testid="voiceprint-no-node">
            {t('noSpeakerNode')}
          </Callout>
        )}
      </div>
      <SearchBar
        fields={[{ name: 'name', label: t('name') }]}
        onSearch={(v) => setName(v.name ?? '')}
        actions={mayEnrol && <Button icon="add" intent={Intent.PRIMARY} text={t('enrol')} onClick={() => setEnrolling(true)} data-testid="voiceprint-enrol" />}
      />
      <PagedTable<SpeakerView>
        testId="voiceprint-speaker"
        rowKey={(s) => s.id}
        reloadKey={name}
        refreshKey={refresh}
        load={async (q): Promise<PageResult<SpeakerView>> => {
          const r = await api.get<Paged<SpeakerView>>('/voiceprint/speaker/list', { params: { name: name || undefined, pageNum: q.page, pageSize: q.pageSize } });
          return { rows: r.records, total: r.total };
        }}
        emptyText={t('noSpeakers')}
        columns={[
          { key: 'name', title: t('name') },
          { key: 'recordings', title: t('recordings') },
          { key: 'speechSeconds', title: t('speechSeconds'), render: (s) => `${s.speechSeconds} s` },
          { key: 'state', title: t('state'), render: (s) => <SpeakerState speaker={s} /> },
          { key: 'createdAt', title: t('createdAt'), render: (s) => (s.createdAt ? formatDate(s.createdAt) : '—') },
          {
            key: 'actions',
            title: '',
            render: (s) => (
              <>
                {mayEnrol && <Button small minimal icon="add" text={t('addRecordings')} onClick={() => setAdding(s)} />}
                {mayDelete && <Button small minimal icon="trash" intent={Intent.DANGER} aria-label={t('deleteSpeaker', { name: s.name })} onClick={() => setRemoving(s)} />}
              </>
            ),
          },
        ]}
      />
      <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 12 }}>
        <IdentifyPanel />
        <VerifyPanel speakers={speakers.filter((s) => s.ready)} />
      </div>
      <EnrolDialog speaker={null} isOpen={enrolling} onClose={() => setEnrolling(false)} onDone={changed} />
      <EnrolDialog speaker={adding} isOpen={!!adding} onClose={() => setAdding(null)} onDone={changed} />
      <ConfirmDialog
        isOpen={!!removing}
        title={t('deleteTitle')}
        message={t('deleteMessage', { name: removing?.name ?? '', count: removing?.recordings ?? 0 })}
        count={1}
        items={removing ? [removing.name] : []}
        intent="danger"
        onConfirm={async () => {
          await api.delete('/voiceprint/speaker/delete', { params: { id: removing!.id }, silent: true });
          setRemoving(null);
          changed();
        }}
        onClose={() => setRemoving(null)}
      />
    </div>
  );
}

export default definePlugin({ id: 'voiceprint', views: { VoiceprintRecognition } });
