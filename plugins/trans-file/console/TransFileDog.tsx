import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button, ButtonGroup, Callout, Card, FormGroup, H4, HTMLSelect, HTMLTable, Intent, NonIdealState, ProgressBar, Spinner, Tag, Tooltip } from '@blueprintjs/core';
import { PageHeader, ConfirmDialog, PagedTable, StatusTag, useApi, useBus, useNotify, usePlatform, useRefreshBefore, useTranslation, type ApiErrorInfo, type PagedColumn, type PageQuery, type ViewProps } from '@linguaport/sdk/console';
import { actionsFrom, documentFile, formatDate, formatSize } from '@linguaport/sdk/shared';
import { FILE_CHANGED, type FileRow } from '../shared/schemas.js';
import { download, NS, Progress, queryId, useLanguageName, useSetup, useStates } from './common.js';

interface Job {
  id: number;
  name: string;
  size: number;
  sourceLang: string;
  targetLang: string;
  status: 'translating' | 'packing' | 'completed' | 'failed';
  skipped: Array<{ name: string; reason: 'empty' | 'tooLarge' | 'notSupported' | 'malformed' }>;
  files: number;
  completed: number;
  failed: number;
  percent: number;
  resultSize: number | null;
  createdAt: string;
  finishedAt: string | null;
  documents?: FileRow[];
}

const JOB_INTENT = { translating: Intent.PRIMARY, packing: Intent.PRIMARY, completed: Intent.SUCCESS, failed: Intent.WARNING } as const;

/**
 * /transFileDog: a whole folder or zip archive translated at once. Each readable file becomes a
 * document in the queue; when all are done, one download gives the archive back with every file
 * translated in place and the rest unchanged. /fileViewDog shows one archive's files.
 */
export function TransFileDog() {
  const { t } = useTranslation(NS);
  const api = useApi();
  const notify = useNotify();
  const { navigate } = usePlatform();
  const setup = useSetup();
  const name = useLanguageName();
  const { setRefreshBefore } = useRefreshBefore();
  const zipInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const [source, setSource] = useState('');
  const [target, setTarget] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [refresh, setRefresh] = useState(0);
  const [deleting, setDeleting] = useState<Job | null>(null);
  const reload = useCallback(() => setRefresh((n) => n + 1), []);
  useBus('transFile.jobChanged', reload);

  useEffect(() => {
    if (folderInput.current) folderInput.current.setAttribute('webkitdirectory', '');
  }, [setup.state]);
  const languages = setup.state === 'ready' ? setup.value.languages : [];
  useEffect(() => {
    if (setup.state !== 'ready' || source) return;
    setSource(languages.find((l) => l.code === setup.value.defaultSource)?.code ?? languages[0]?.code ?? '');
  }, [setup, languages, source]);
  const targets = useMemo(() => languages.find((l) => l.code === source)?.targets.filter((c) => c !== source) ?? [], [languages, source]);
  useEffect(() => {
    if (!targets.includes(target)) setTarget(targets[0] ?? '');
  }, [targets, target]);

  const send = async (form: FormData) => {
    form.set('sourceLang', source);
    form.set('targetLang', target);
    setRefreshBefore(true);
    setProgress(0);
    setError(null);
    try {
      const job = await api.post<Job>('/transFileDog/upload', form, { silent: true, onUploadProgress: setProgress });
      notify.success(t('dog.accepted', { count: job.files, skipped: job.skipped.length }));
      reload();
    } catch (e) {
      const err = e as ApiErrorInfo;
      setError(err.code === 3027 ? t('queueFull') : err.msg);
    } finally {
      setRefreshBefore(false);
      setProgress(null);
    }
  };
  const sendZip = (file: File | undefined) => {
    if (!file) return;
    const form = new FormData();
    form.append('archive', file);
    void send(form);
  };
  const sendFolder = (files: File[]) => {
    if (!files.length) return;
    const form = new FormData();
    for (const f of files) form.append('files', f);
    form.set('paths', JSON.stringify(files.map((f) => (f as File & { webkitRelativePath?: string }).webkitRelativePath || f.name)));
    void send(form);
  };

  const load = useCallback(
    async (q: PageQuery) => {
      const r = await api.get<{ records: Job[]; total: number }>('/transFileDog/list', { params: { pageNum: q.page, pageSize: q.pageSize }, silent: true });
      return { rows: r.records, total: r.total };
    },
    [api],
  );

  const columns: PagedColumn<Job>[] = [
    { key: 'name', title: t('name'), render: (j) => <a role="link" data-testid={`job-${j.id}`} onClick={() => navigate(`/fileViewDog?id=${j.id}`)}>{j.name}</a> },
    { key: 'createdAt', title: t('uploadTime'), render: (j) => formatDate(j.createdAt) },
    { key: 'size', title: t('size'), render: (j) => formatSize(j.size) },
    { key: 'direction', title: t('direction'), render: (j) => `${name(j.sourceLang)} → ${name(j.targetLang)}` },
    { key: 'files', title: t('dog.files'), render: (j) => t('dog.counts', { files: j.files, completed: j.completed, failed: j.failed, skipped: j.skipped.length }) },
    {
      key: 'status',
      title: t('statusColumn'),
      render: (j) => (
        <div data-testid={`job-status-${j.id}`} data-status={j.status} style={{ minWidth: 140 }}>
          <Tag intent={JOB_INTENT[j.status]} minimal>{t(`dog.status.${j.status}`)}</Tag>
          {j.status === 'translating' && <ProgressBar value={j.percent / 100} intent={Intent.PRIMARY} />}
        </div>
      ),
    },
    {
      key: 'actions',
      title: t('actions'),
      render: (j) => (
        <ButtonGroup minimal>
          <Tooltip content={t('dog.viewFiles')}>
            <Button icon="list-detail-view" aria-label={t('dog.viewFiles')} onClick={() => navigate(`/fileViewDog?id=${j.id}`)} />
          </Tooltip>
          {(j.status === 'completed' || j.status === 'failed') && (
            <Tooltip content={t('dog.download')}>
              <Button icon="download" intent={Intent.PRIMARY} data-testid={`job-download-${j.id}`} aria-label={t('dog.download')} onClick={() => void download(api, `/transFileDog/download/${j.id}`, `${j.name.replace(/\.[^.]+$/, '')}_${j.targetLang}.zip`).catch((e: ApiErrorInfo) => notify.error(e.msg))} />
            </Tooltip>
          )}
          <Tooltip content={t('delete')}>
            <Button icon="trash" intent={Intent.DANGER} aria-label={t('delete')} onClick={() => setDeleting(j)} />
          </Tooltip>
        </ButtonGroup>
      ),
    },
  ];

  if (setup.state === 'failed') return <Callout intent={Intent.DANGER} style={{ margin: 16 }}>{t('loadFailed', { msg: setup.msg })}</Callout>;
  return (
    <div data-testid="trans-file-dog" style={{ padding: 16, display: 'grid', gap: 12 }}>
      <PageHeader title={t('dogTitle')} />
      <Card style={{ display: 'grid', gap: 10 }}>
        <div style={{ color: '#5f6b7c' }}>{t('dog.explain')}</div>
        <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap', alignItems: 'flex-end' }}>
          <FormGroup label={t('source')} labelFor="dog-source">
            <HTMLSelect id="dog-source" value={source} onChange={(e) => setSource(e.currentTarget.value)}>
              {languages.map((l) => (
                <option key={l.code} value={l.code}>{name(l.code)}</option>
              ))}
            </HTMLSelect>
          </FormGroup>
          <FormGroup label={t('target')} labelFor="dog-target">
            <HTMLSelect id="dog-target" value={target} onChange={(e) => setTarget(e.currentTarget.value)}>
              {targets.map((c) => (
                <option key={c} value={c}>{name(c)}</option>
              ))}
            </HTMLSelect>
          </FormGroup>
          <FormGroup>
            <ButtonGroup>
              <Button icon="compressed" data-testid="dog-choose-zip" text={t('dog.chooseZip')} disabled={!target || progress !== null} onClick={() => zipInput.current?.click()} />
              <Button icon="folder-open" text={t('dog.chooseFolder')} disabled={!target || progress !== null} onClick={() => folderInput.current?.click()} />
            </ButtonGroup>
          </FormGroup>
        </div>
        <input ref={zipInput} data-testid="dog-zip-input" type="file" accept=".zip" style={{ display: 'none' }} onChange={(e) => { const f = e.currentTarget.files?.[0]; e.currentTarget.value = ''; sendZip(f); }} />
        <input ref={folderInput} data-testid="dog-folder-input" type="file" multiple style={{ display: 'none' }} onChange={(e) => { const files = Array.from(e.currentTarget.files ?? []); e.currentTarget.value = ''; sendFolder(files); }} />
        {progress !== null && <ProgressBar value={progress} intent={Intent.PRIMARY} />}
        {error && <Callout intent={Intent.DANGER} data-testid="dog-error">{error}</Callout>}
      </Card>
      <PagedTable<Job> testId="job" columns={columns} rowKey={(j) => j.id} load={load} refreshKey={refresh} emptyText={t('dog.empty')} />
      <ConfirmDialog
        isOpen={deleting !== null}
        title={t('dog.deleteTitle')}
        message={t('dog.deleteMessage')}
        items={deleting ? [deleting.name] : []}
        intent="danger"
        confirmText={t('delete')}
        onConfirm={async () => {
          await api.delete('/transFileDog/delete', { params: { ids: String(deleting!.id) } });
          setDeleting(null);
          reload();
        }}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}

/** /fileViewDog: one archive's documents with their states and progress, and the files left out. */
export function FileViewDog({ query }: ViewProps) {
  const { t } = useTranslation(NS);
  const api = useApi();
  const notify = useNotify();
  const { navigate } = usePlatform();
  const states = useStates();
  const id = queryId(query);
  const [job, setJob] = useState<Job | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    if (!id) return;
    api.get<Job>(`/transFileDog/get/${id}`, { silent: true }).then(setJob, (e: ApiErrorInfo) => setError(e.msg));
  }, [api, id]);
  useEffect(load, [load]);
  useBus('transFile.jobChanged', load);
  useBus(FILE_CHANGED, load);

  if (!id) return <NonIdealState icon="search" title={t('noFileChosen')} action={<Button text={t('dog.back')} onClick={() => navigate('/transFileDog')} />} />;
  if (error) return <Callout intent={Intent.DANGER} style={{ margin: 16 }}>{error}</Callout>;
  if (!job) return <NonIdealState icon={<Spinner size={24} />} />;
  return (
    <div data-testid="file-view-dog" style={{ padding: 16, display: 'grid', gap: 12 }}>
      <div style={{ display: 'flex', gap: 10, alignItems: 'center' }}>
        <Button icon="arrow-left" minimal aria-label={t('dog.back')} onClick={() => navigate('/transFileDog')} />
        <H4 style={{ margin: 0 }}>{job.name}</H4>
        <Tag intent={JOB_INTENT[job.status]} minimal>{t(`dog.status.${job.status}`)}</Tag>
        <div style={{ flex: 1 }} />
        {(job.status === 'completed' || job.status === 'failed') && (
          <Button icon="download" intent={Intent.PRIMARY} text={t('dog.download')} onClick={() => void download(api, `/transFileDog/download/${job.id}`, `${job.name.replace(/\.[^.]+$/, '')}_${job.targetLang}.zip`).catch((e: ApiErrorInfo) => notify.error(e.msg))} />
        )}
      </div>
      <HTMLTable compact striped data-testid="dog-documents" style={{ width: '100%' }}>
        <thead>
          <tr>
            <th>{t('dog.path')}</th>
            <th>{t('size')}</th>
            <th>{t('characters')}</th>
            <th>{t('statusColumn')}</th>
            <th>{t('actions')}</th>
          </tr>
        </thead>
        <tbody>
          {(job.documents ?? []).map((f) => {
            const allowed = actionsFrom(documentFile, f.status, 'owner');
            return (
              <tr key={f.id}>
                <td>{f.name}</td>
                <td>{formatSize(f.size)}</td>
                <td>{f.characters}</td>
                <td>
                  <StatusTag value={f.status} states={states.file} />
                  <Progress file={f} />
                </td>
                <td>
                  <ButtonGroup minimal>
                    {allowed.includes('preview') && <Button icon="comparison" aria-label={t('previewSideBySide')} onClick={() => navigate(`/fileView?id=${f.id}`)} />}
                    {allowed.includes('submit') && <Button icon="refresh" aria-label={t('retry')} onClick={() => void api.post(`/transFile/retry/${f.id}`, undefined, { silent: true }).then(load, (e: ApiErrorInfo) => notify.error(e.msg))} />}
                  </ButtonGroup>
                </td>
              </tr>
            );
          })}
        </tbody>
      </HTMLTable>
      {job.skipped.length > 0 && (
        <Callout intent={Intent.NONE} title={t('dog.skippedTitle', { count: job.skipped.length })} data-testid="dog-skipped">
          <ul style={{ margin: 0 }}>
            {job.skipped.map((s) => (
              <li key={s.name}>{s.name}: {t(`dog.reason.${s.reason}`)}</li>
            ))}
          </ul>
        </Callout>
      )}
    </div>
  );
}
