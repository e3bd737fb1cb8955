import { useCallback, useEffect, useMemo, useState } from 'react';
import { Button, Callout, Card, Checkbox, H4, HTMLTable, InputGroup, Intent, NonIdealState, ProgressBar, Spinner, Tag } from '@blueprintjs/core';
import { ConfirmDialog, taskFraction, useApi, useNotify, usePermission, useTask, useTranslation, type ApiErrorInfo } from '@linguaport/sdk/console';

interface Pack {
  name: string;
  description: string;
  languages: { code: string; name: { 'zh-CN': string; 'en-US': string } }[];
  installed: boolean;
  version: string | null;
}
interface PackList {
  packs: Pack[];
  canManage: boolean;
  reason: string | null;
  task: string | null;
}

/**
 * Language packs (the Apertium pairs Debian packages): search, tick, install or remove as a task with
 * its progress shown live; the engines restart with the new pairs when it ends. Without root on the
 * server the card shows the command an administrator runs instead.
 */
export function LanguagePacks({ onChanged }: { onChanged(): void }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const notify = useNotify();
  const permissions = usePermission();
  const zh = i18n.language === 'zh-CN';
  const [list, setList] = useState<PackList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [taskId, setTaskId] = useState<string | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const { task } = useTask<{ action: string; packages: string[] }>(taskId);

  const load = useCallback(() => {
    api.get<PackList>('/translServiceNode/languagePacks', { silent: true }).then(
      (r) => {
        setList(r);
        setError(null);
        if (r.task) setTaskId((id) => id ?? r.task);
      },
      (err: ApiErrorInfo) => setError(err.msg),
    );
  }, [api]);
  useEffect(load, [load]);

  const running = task?.state === 'queued' || task?.state === 'running';
  useEffect(() => {
    if (!task || running) return;
    if (task.state === 'completed') notify.success(t('packsDone'));
    else if (task.state === 'failed') notify.error(task.error ?? t('packsFailed'));
    setChosen(new Set());
    load();
    onChanged();
    // Only when the task reaches its end.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [task?.state]);

  const label = (p: Pack) => p.languages.map((l) => (zh ? l.name['zh-CN'] : l.name['en-US'])).join(' ⇄ ');
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (list?.packs ?? []).filter((p) => !q || p.name.includes(q) || label(p).toLowerCase().includes(q) || p.languages.some((l) => l.name['zh-CN'].includes(q) || l.name['en-US'].toLowerCase().includes(q)));
    // label depends on the locale only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [list, query, zh]);
  const picked = (list?.packs ?? []).filter((p) => chosen.has(p.name));
  const toInstall = picked.filter((p) => !p.installed).map((p) => p.name);
  const toRemove = picked.filter((p) => p.installed).map((p) => p.name);
  const mayManage = permissions.hasButton('service:languagePacks');

  const start = async (action: 'install' | 'remove', packages: string[]) => {
    try {
      const started = await api.post<{ id: string }>('/translServiceNode/languagePacks', { action, packages }, { silent: true });
      setTaskId(started.id);
    } catch (err) {
      notify.error((err as ApiErrorInfo).msg);
    }
  };
  const toggle = (name: string) =>
    setChosen((s) => {
      const next = new Set(s);
      if (next.has(name)) next.delete(name);
      else next.add(name);
      return next;
    });

  return (
    <Card data-testid="language-packs">
      <H4>{t('languagePacks')}</H4>
      <div style={{ color: '#5f6b7c', marginBottom: 8 }}>{t('languagePacksHelp')}</div>
      {error && <Callout intent={Intent.DANGER}>{t('loadFailed', { msg: error })}</Callout>}
      {list && !list.canManage && mayManage && (
        <Callout intent={Intent.WARNING} style={{ marginBottom: 8 }} data-testid="packs-no-root">
          {list.reason}
          {toInstall.length > 0 && <pre style={{ margin: '6px 0 0' }}>sudo apt-get install -y {toInstall.join(' ')}</pre>}
          {toRemove.length > 0 && <pre style={{ margin: '6px 0 0' }}>sudo apt-get remove -y {toRemove.join(' ')}</pre>}
        </Callout>
      )}
      {task && running && (
        <div style={{ marginBottom: 8 }} data-testid="packs-progress">
          <div>{t(task.output?.action === 'remove' ? 'packsRemoving' : 'packsInstalling')} {task.progress.message ?? ''}</div>
          <ProgressBar intent={Intent.PRIMARY} value={taskFraction(task) ?? undefined} />
        </div>
      )}
      <div style={{ display: 'flex', gap: 8, marginBottom: 8, flexWrap: 'wrap' }}>
        <InputGroup leftIcon="search" placeholder={t('packsSearch')} value={query} onChange={(e) => setQuery(e.target.value)} style={{ width: 240 }} aria-label={t('packsSearch')} />
        {mayManage && (
          <>
            <Button icon="download" intent={Intent.PRIMARY} disabled={!toInstall.length || running || !list?.canManage} onClick={() => void start('install', toInstall)} data-testid="packs-install" text={t('packsInstall', { count: toInstall.length })} />
            <Button icon="trash" intent={Intent.DANGER} disabled={!toRemove.length || running || !list?.canManage} onClick={() => setConfirmRemove(true)} data-testid="packs-remove" text={t('packsRemove', { count: toRemove.length })} />
          </>
        )}
      </div>
      <ConfirmDialog
        isOpen={confirmRemove}
        title={t('packsRemoveTitle')}
        message={t('packsRemoveMessage')}
        count={toRemove.length}
        items={picked.filter((p) => p.installed).map(label)}
        intent="danger"
        onConfirm={async () => {
          setConfirmRemove(false);
          await start('remove', toRemove);
        }}
        onClose={() => setConfirmRemove(false)}
      />
      {!list && !error && <Spinner size={20} />}
      {list && shown.length === 0 && <NonIdealState icon="translate" title={query ? t('packsNoMatch') : t('packsNone')} />}
      {shown.length > 0 && (
        <div style={{ maxHeight: 360, overflowY: 'auto' }}>
          <HTMLTable compact striped style={{ width: '100%' }}>
            <thead>
              <tr>
                <th />
                <th>{t('packsLanguages')}</th>
                <th>{t('packsPackage')}</th>
                <th>{t('packsStatus')}</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((p) => (
                <tr key={p.name} data-testid={`pack-${p.name}`}>
                  <td>{mayManage && <Checkbox checked={chosen.has(p.name)} onChange={() => toggle(p.name)} aria-label={label(p)} style={{ margin: 0 }} />}</td>
                  <td>{label(p)}</td>
                  <td>
                    <code>{p.name}</code>
                  </td>
                  <td>{p.installed ? <Tag intent={Intent.SUCCESS}>{t('packsInstalled', { version: p.version ?? '' })}</Tag> : <Tag minimal>{t('packsNotInstalled')}</Tag>}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
    </Card>
  );
}
