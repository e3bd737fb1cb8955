import { useEffect, useState } from 'react';
import { Button, Callout, Checkbox, Dialog, DialogBody, DialogFooter, HTMLSelect, HTMLTable, Intent, Spinner, Tag } from '@blueprintjs/core';
import { ConfirmDialog, PagedTable, SearchBar, useApi, useNotify, usePermission, useTranslation, type ApiErrorInfo, type PageResult } from '@linguaport/sdk/console';
import { formatDate, languageDisplayName } from '@linguaport/sdk/shared';
import { EXPORT_FORMATS, EXPORT_TRACKS, KEYS, type SessionView, type UtteranceView } from '../shared/schemas.js';
import { download, NS } from './common.js';

const clock = (seconds: number) => new Date(Math.max(0, seconds) * 1000).toISOString().slice(11, 19);

/** One session: its utterances, and its transcript exported as TXT, SRT or DOCX. */
function SessionDialog({ session, onClose }: { session: SessionView | null; onClose(): void }) {
  const { t } = useTranslation(NS);
  const api = useApi();
  const notify = useNotify();
  const [detail, setDetail] = useState<{ id: number; utterances: UtteranceView[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [track, setTrack] = useState<(typeof EXPORT_TRACKS)[number]>('bilingual');
  useEffect(() => {
    if (!session) return;
    api.get<{ utterances: UtteranceView[] }>(`/interpretation/sessions/${session.id}`, { silent: true }).then(
      (r) => setDetail({ id: session.id, utterances: r.utterances }),
      (e: ApiErrorInfo) => setError(e.msg),
    );
  }, [api, session]);
  const close = () => {
    setDetail(null);
    setError(null);
    onClose();
  };
  const save = (format: (typeof EXPORT_FORMATS)[number]) =>
    download(api, `/interpretation/sessions/${session!.id}/export`, { format, track }, `interpretation-${session!.id}-${track}.${format}`).catch((e: ApiErrorInfo) => notify.error(e.msg));
  return (
    <Dialog isOpen={!!session} onClose={close} title={t('sessionTitle', { at: session?.startedAt ? formatDate(session.startedAt) : '' })} style={{ width: 860 }} canOutsideClickClose={false}>
      <DialogBody>
        {error ? (
          <Callout intent={Intent.DANGER}>{error}</Callout>
        ) : !detail || detail.id !== session?.id ? (
          <Spinner />
        ) : detail.utterances.length === 0 ? (
          <p className="bp6-text-muted">{t('noUtterances')}</p>
        ) : (
          <HTMLTable compact striped style={{ width: '100%' }} data-testid="interpretation-utterances">
            <thead>
              <tr>
                <th>{t('time')}</th>
                <th>{t('speaker')}</th>
                <th>{t('transcript')}</th>
                <th>{t('translation')}</th>
              </tr>
            </thead>
            <tbody>
              {detail.utterances.map((u) => (
                <tr key={u.index}>
                  <td>{clock(u.start)}</td>
                  <td>{u.speaker ?? '—'}</td>
                  <td>{u.text}</td>
                  <td>{u.translation}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <HTMLSelect aria-label={t('track')} value={track} onChange={(e) => setTrack(e.currentTarget.value as typeof track)}>
              {EXPORT_TRACKS.map((k) => (
                <option key={k} value={k}>{t(`tracks.${k}`)}</option>
              ))}
            </HTMLSelect>
            {EXPORT_FORMATS.map((f) => (
              <Button key={f} icon="download" text={f.toUpperCase()} onClick={() => void save(f)} data-testid={`interpretation-export-${f}`} />
            ))}
            <Button text={t('close')} onClick={close} />
          </>
        }
      />
    </Dialog>
  );
}

/** The log: every session with its start, end, speakers and first words; search by text and day. */
export function SimultaneousInterpretationLog() {
  const { t, i18n } = useTranslation(NS);
  const api = useApi();
  const permissions = usePermission();
  const mayAll = permissions.hasButton(KEYS.logAll);
  const mayDelete = permissions.hasButton(KEYS.log);
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [all, setAll] = useState(false);
  const [refresh, setRefresh] = useState(0);
  const [open, setOpen] = useState<SessionView | null>(null);
  const [removing, setRemoving] = useState<SessionView | null>(null);
  return (
    <div style={{ display: 'grid', gap: 12 }}>
      <SearchBar
        fields={[
          { name: 'q', label: t('searchText') },
          { name: 'from', label: t('from'), type: 'date' },
          { name: 'to', label: t('to'), type: 'date' },
        ]}
        onSearch={(v) => setFilters(v)}
        actions={mayAll && <Checkbox inline label={t('everyone')} checked={all} onChange={() => setAll(!all)} style={{ margin: 0 }} />}
      />
      <PagedTable<SessionView>
        testId="interpretation-session"
        rowKey={(s) => s.id}
        reloadKey={JSON.stringify([filters, all])}
        refreshKey={refresh}
        load={async (q): Promise<PageResult<SessionView>> => {
          const params = { pageNum: q.page, pageSize: q.pageSize, q: filters.q || undefined, from: filters.from || undefined, to: filters.to || undefined, all: all ? 'true' : undefined };
          const r = await api.get<{ records: SessionView[]; total: number }>('/interpretation/sessions', { params });
          return { rows: r.records, total: r.total };
        }}
        emptyText={t('noSessions')}
        columns={[
          { key: 'startedAt', title: t('startedAt'), render: (s) => (s.startedAt ? formatDate(s.startedAt) : '—') },
          { key: 'endedAt', title: t('endedAt'), render: (s) => (s.status === 'live' ? <Tag intent={Intent.SUCCESS}>{t('live')}</Tag> : s.endedAt ? formatDate(s.endedAt) : '—') },
          ...(all ? [{ key: 'ownerName', title: t('owner') }] : []),
          { key: 'languages', title: t('languagesColumn'), render: (s: SessionView) => `${languageDisplayName(s.source, i18n.language)} → ${languageDisplayName(s.target, i18n.language)}` },
          { key: 'speakers', title: t('speakers'), render: (s: SessionView) => (s.speakers.length ? s.speakers.join(', ') : '—') },
          { key: 'utterances', title: t('utterances') },
          { key: 'preview', title: t('preview'), render: (s: SessionView) => (s.preview ? `${s.preview}${s.preview.length >= 80 ? '…' : ''}` : '—') },
          {
            key: 'actions',
            title: '',
            render: (s: SessionView) => (
              <>
                <Button small minimal icon="eye-open" text={t('view')} onClick={() => setOpen(s)} data-testid="interpretation-view" />
                {mayDelete && s.status !== 'live' && <Button small minimal icon="trash" intent={Intent.DANGER} aria-label={t('delete')} onClick={() => setRemoving(s)} />}
              </>
            ),
          },
        ]}
      />
      <SessionDialog session={open} onClose={() => setOpen(null)} />
      <ConfirmDialog
        isOpen={!!removing}
        title={t('deleteTitle')}
        message={t('deleteMessage', { at: removing?.startedAt ? formatDate(removing.startedAt) : '' })}
        count={1}
        items={removing ? [removing.startedAt ? formatDate(removing.startedAt) : String(removing.id)] : []}
        intent="danger"
        onConfirm={async () => {
          await api.delete(`/interpretation/sessions/${removing!.id}`, { silent: true });
          setRemoving(null);
          setRefresh((n) => n + 1);
        }}
        onClose={() => setRemoving(null)}
      />
    </div>
  );
}
