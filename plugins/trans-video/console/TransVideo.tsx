import { useEffect, useMemo, useState } from 'react';
import { Button, Callout, Card, FormGroup, HTMLSelect, Intent, ProgressBar } from '@blueprintjs/core';
import {
  ResourcePickers,
  type ChosenResources,
  MediaDropZone,
  MediaJobScreen,
  useApi,
  useLastLanguagePair,
  usePermission,
  usePlatform,
  useRefreshBefore,
  useTranslation,
  type ApiErrorInfo,
} from '@linguaport/sdk/console';
import { formatDate, formatSize } from '@linguaport/sdk/shared';
import { formatSeconds, JOB_CHANGED, NS, settingsSchema, TRACKS, type JobRow, type Settings } from '../shared/schemas.js';
import { languageLabel } from './common.js';

interface Setup {
  languages: { code: string; targets: string[] }[];
  limits: Settings;
}

const NO_BURN = '';

function NewJob({ setup, onStarted }: { setup: Setup; onStarted(): void }) {
  const { t, i18n } = useTranslation(NS);
  const api = useApi();
  const { setRefreshBefore } = useRefreshBefore();
  // The user's last pair for video first (when still offered), then the first language.
  const { pair: lastPair, remember } = useLastLanguagePair('video');
  const [source, setSource] = useState(setup.languages.find((l) => l.code === lastPair?.source)?.code ?? setup.languages[0]?.code ?? '');
  const targets = useMemo(() => setup.languages.find((l) => l.code === source)?.targets ?? [], [setup, source]);
  const [target, setTarget] = useState('');
  const [burn, setBurn] = useState<string>(NO_BURN);
  const [file, setFile] = useState<File | null>(null);
  const [resources, setResources] = useState<ChosenResources>({ memories: [], termBases: [] });
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (targets.includes(target)) return;
    const wanted = lastPair && lastPair.source === source && targets.includes(lastPair.target) ? lastPair.target : 'es';
    setTarget(targets.includes(wanted) ? wanted : (targets[0] ?? ''));
  }, [targets, target, lastPair, source]);

  const problems: string[] = [];
  if (file && file.size === 0) problems.push(t('emptyFile', { name: file.name }));
  if (file && file.size > setup.limits.maxFileMb * 1024 * 1024) problems.push(t('tooBig', { name: file.name, mb: setup.limits.maxFileMb }));

  const submit = async () => {
    if (!file) return;
    const form = new FormData();
    remember(source, target);
    form.set('sourceLanguage', source);
    form.set('targetLanguage', target);
    if (burn !== NO_BURN) form.set('burn', burn);
    form.set('memories', JSON.stringify(resources.memories));
    form.set('termBases', JSON.stringify(resources.termBases));
    form.append('file', file);
    setRefreshBefore(true);
    setProgress(0);
    setError(null);
    try {
      await api.post('/transVideo/upload', form, { silent: true, onUploadProgress: setProgress });
      setFile(null);
      onStarted();
    } catch (e) {
      setError((e as ApiErrorInfo).msg);
    } finally {
      setRefreshBefore(false);
      setProgress(null);
    }
  };

  if (setup.languages.length === 0) return <Callout intent={Intent.WARNING} data-testid="tv-no-speech">{t('noSpeechNode')}</Callout>;
  return (
    <Card style={{ display: 'grid', gap: 10 }} data-testid="tv-new">
      <div style={{ display: 'flex', gap: 16, flexWrap: 'wrap', alignItems: 'flex-end' }}>
        <FormGroup label={t('sourceLanguage')} labelFor="tv-source" style={{ margin: 0 }}>
          <HTMLSelect id="tv-source" data-testid="tv-source" value={source} onChange={(e) => setSource(e.currentTarget.value)}>
            {setup.languages.map((l) => (
              <option key={l.code} value={l.code}>{languageLabel(l.code, i18n.language)}</option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup label={t('targetLanguage')} labelFor="tv-target" style={{ margin: 0 }}>
          <HTMLSelect id="tv-target" data-testid="tv-target" value={target} disabled={!targets.length} onChange={(e) => setTarget(e.currentTarget.value)}>
            {targets.map((code) => (
              <option key={code} value={code}>{languageLabel(code, i18n.language)}</option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup label={t('burnAtUpload')} labelFor="tv-burn" style={{ margin: 0 }}>
          <HTMLSelect id="tv-burn" data-testid="tv-burn" value={burn} onChange={(e) => setBurn(e.currentTarget.value)}>
            <option value={NO_BURN}>{t('noBurn')}</option>
            {TRACKS.map((track) => (
              <option key={track} value={track}>{t(`tracks.${track}`)}</option>
            ))}
          </HTMLSelect>
        </FormGroup>
      </div>
      {/* The lines are translated with these memories and term bases (the user's defaults preselected). */}
      <ResourcePickers value={resources} onChange={setResources} preselectDefaults testIds={{ memories: 'tv-memories', termBases: 'tv-term-bases' }} />
      {!targets.length && <Callout intent={Intent.WARNING}>{t('noTargets')}</Callout>}
      <MediaDropZone
        testId="tv"
        accept="audio/*,video/*,.mkv,.webm,.flac,.ogg,.m4a,.mov"
        files={file ? [file] : []}
        onFiles={(files) => setFile(files[0] ?? null)}
        prompt={t('drop')}
        limits={t('limits', { mb: setup.limits.maxFileMb, duration: formatSeconds(setup.limits.maxDurationSeconds) })}
      />
      {problems.length > 0 && <Callout intent={Intent.WARNING} data-testid="tv-problems">{problems.join(' ')}</Callout>}
      {progress !== null && <ProgressBar value={progress} intent={Intent.PRIMARY} />}
      {error && <Callout intent={Intent.DANGER} data-testid="tv-error">{error}</Callout>}
      <div>
        <Button intent={Intent.PRIMARY} icon="translate" data-testid="tv-start" disabled={!file || !target || problems.length > 0 || progress !== null} loading={progress !== null} text={t('start')} onClick={() => void submit()} />
      </div>
    </Card>
  );
}

/**
 * /transVideo: the user uploads audio or video with its spoken language and the language to translate
 * into, follows the job live (sound, speech, translation, burning), opens a finished one in the preview,
 * cancels, runs again or deletes (after a confirmation).
 */
export function TransVideo() {
  const { t, i18n } = useTranslation(NS);
  const permissions = usePermission();
  const { navigate } = usePlatform();

  // The list, live status, cancel, retry, delete and limits are the SDK's media-job screen.
  return (
    <MediaJobScreen<JobRow, Setup>
      base="/transVideo"
      event={JOB_CHANGED}
      testId="tv"
      t={t}
      manage={permissions.hasButton('transVideo:manage')}
      columns={[
        {
          key: 'name',
          title: t('name'),
          render: (r) =>
            r.status === 'completed' ? (
              <a role="link" data-testid={`tv-open-${r.id}`} onClick={() => navigate(`/transVideoView?id=${r.id}`)}>{r.name}</a>
            ) : (
              r.name
            ),
        },
        { key: 'languages', title: t('languages'), render: (r) => `${languageLabel(r.sourceLanguage, i18n.language)} → ${languageLabel(r.targetLanguage, i18n.language)}` },
        { key: 'duration', title: t('duration'), render: (r) => formatSeconds(r.duration) },
        { key: 'size', title: t('size'), render: (r) => formatSize(r.size) },
        { key: 'createdAt', title: t('createdAt'), render: (r) => formatDate(r.createdAt) },
      ]}
      statusWidth={220}
      stage={(r) => r.status === 'running' && <span style={{ marginLeft: 6, color: '#738091' }}>{t(`stages.${r.stage}`)}</span>}
      statusExtra={(r) =>
        r.burnStatus !== 'none' && (
          <span data-testid={`tv-burn-status-${r.id}`} data-status={r.burnStatus} style={{ fontSize: 12, color: '#738091' }}>
            {t('burnState', { state: t(`states.${r.burnStatus}`) })}
          </span>
        )
      }
      actions={(r) => r.status === 'completed' && <Button icon="eye-open" intent={Intent.PRIMARY} aria-label={t('open')} title={t('open')} onClick={() => navigate(`/transVideoView?id=${r.id}`)} />}
      // Burning is a second task of the job: it can be cancelled too.
      cancellable={(r) => r.status === 'queued' || r.status === 'running' || r.burnStatus === 'queued' || r.burnStatus === 'running'}
      stale={(pushed, listed) => pushed.status === listed.status && pushed.burnStatus === listed.burnStatus}
      newJob={(setup, reload) => <NewJob setup={setup} onStarted={reload} />}
      settingsSchema={settingsSchema}
      settingsFields={[
        { name: 'maxFileMb', label: t('maxFileMb'), type: 'number', required: true },
        { name: 'maxDurationSeconds', label: t('maxDurationSeconds'), type: 'number', required: true },
      ]}
    />
  );
}
