import { Button, ButtonGroup, Dialog, DialogBody, HTMLTable, Tag } from '@blueprintjs/core';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@linguaport/sdk/shared';
import { useKernel } from '../container.js';
import { markRead, MESSAGE_EVENTS, preview, type Message } from '../shell/messages.js';

const PAGE_SIZE = 10;

/**
 * `/messages`: the signed-in user's own messages, whatever their roles (the header dropdown's and the
 * home tile's "More"): all or unread, open one (shown whole and marked read), mark read, mark all
 * read. `?open=<id>` opens that message on arrival.
 */
export function Messages() {
  const { http, bus } = useKernel();
  const { t } = useTranslation('core');
  const [search, setSearch] = useSearchParams();
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ records: Message[]; total: number } | null>(null);
  const [opened, setOpened] = useState<Message | null>(null);

  const load = useCallback(
    () =>
      http
        .get<{ records: Message[]; total: number }>('/messageRemind/messagesByPage', { params: { pageNum: page, pageSize: PAGE_SIZE, ...(unreadOnly ? { isRead: false } : {}) }, silent: true })
        .then(setData, () => setData({ records: [], total: 0 })),
    [http, page, unreadOnly],
  );
  useEffect(() => {
    void load();
    const subs = MESSAGE_EVENTS.map((type) => bus.events(type).subscribe(() => void load()));
    return () => subs.forEach((s) => s.unsubscribe());
  }, [bus, load]);

  const show = useCallback(
    (m: Message) => {
      setOpened(m);
      if (!m.isRead) void markRead(http, [m.id]).then(load);
    },
    [http, load],
  );

  // Arriving from the dropdown with ?open=<id>: the message may be on any page, so it is asked for by id.
  const openId = Number(search.get('open')) || null;
  useEffect(() => {
    if (!openId) return;
    void http.get<Message[]>('/messageRemind/messages', { silent: true }).then((all) => {
      const m = all.find((x) => x.id === openId);
      if (m) show(m);
    }, () => {});
    setSearch((s) => {
      s.delete('open');
      return s;
    }, { replace: true });
  }, [openId]);

  const pages = Math.max(1, Math.ceil((data?.total ?? 0) / PAGE_SIZE));
  const anyUnread = data?.records.some((m) => !m.isRead) ?? false;

  return (
    <div style={{ padding: 20, display: 'grid', gap: 12 }} data-testid="messages-view">
      <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
        <ButtonGroup>
          <Button text={t('news.all')} active={!unreadOnly} onClick={() => { setUnreadOnly(false); setPage(1); }} data-testid="messages-all" />
          <Button text={t('news.unreadOnly')} active={unreadOnly} onClick={() => { setUnreadOnly(true); setPage(1); }} data-testid="messages-unread" />
        </ButtonGroup>
        <Button intent="primary" text={t('news.markAllRead')} onClick={() => void markRead(http, 'all').then(load)} disabled={!anyUnread && !unreadOnly} data-testid="messages-mark-all" />
      </div>
      {data && data.records.length === 0 ? (
        <div className="bp6-text-muted" data-testid="messages-empty">{unreadOnly ? t('news.noneUnread') : t('news.none')}</div>
      ) : (
        <HTMLTable compact striped style={{ width: '100%' }}>
          <thead>
            <tr>
              <th style={{ width: 110 }}>{t('news.type')}</th>
              <th>{t('news.content')}</th>
              <th style={{ width: 170 }}>{t('news.time')}</th>
              <th style={{ width: 120 }} />
            </tr>
          </thead>
          <tbody>
            {data?.records.map((m) => (
              <tr key={m.id} data-testid={`messages-row-${m.id}`} data-read={m.isRead}>
                <td><Tag minimal intent={m.isRead ? 'none' : 'danger'}>{m.typeName}</Tag></td>
                <td style={{ fontWeight: m.isRead ? 'normal' : 600, overflowWrap: 'anywhere' }}>
                  <a href={`?open=${m.id}`} onClick={(e) => { e.preventDefault(); show(m); }} data-testid={`messages-open-${m.id}`}>{preview(m.content, 120)}</a>
                </td>
                <td className="bp6-text-muted">{formatDate(m.createTime)}</td>
                <td>{!m.isRead && <Button size="small" variant="minimal" text={t('news.markRead')} onClick={() => void markRead(http, [m.id]).then(load)} data-testid={`messages-read-${m.id}`} />}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {pages > 1 && (
        <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
          <Button text={t('news.prev')} disabled={page <= 1} onClick={() => setPage(page - 1)} />
          <span>{t('news.page', { page, pages })}</span>
          <Button text={t('news.next')} disabled={page >= pages} onClick={() => setPage(page + 1)} />
        </div>
      )}
      <Dialog isOpen={opened !== null} title={opened?.typeName ?? ''} onClose={() => setOpened(null)}>
        <DialogBody>
          <div className="bp6-text-muted" style={{ marginBottom: 8 }}>{opened ? formatDate(opened.createTime) : ''}</div>
          <div style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="message-content">{opened?.content}</div>
        </DialogBody>
      </Dialog>
    </div>
  );
}
