import { Button, Popover, Tag } from '@blueprintjs/core';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@linguaport/sdk/shared';
import { useKernel } from '../container.js';
import { markRead, MESSAGE_EVENTS, MESSAGES_PATH, preview, type Message } from './messages.js';

const DROPDOWN_SIZE = 8;

/**
 * The header's message dropdown (spec 02 section 2: mark as read, more) behind the bell with its
 * unread dot. Every signed-in user has it, whatever their roles: the messages are their own. The count
 * and the list follow the server's `message.created` and `messages.changed` pushes.
 */
export function NewsButton() {
  const { http, bus } = useKernel();
  const { t } = useTranslation('core');
  const navigate = useNavigate();
  const [unread, setUnread] = useState(0);
  const [open, setOpen] = useState(false);
  const [list, setList] = useState<Message[] | null>(null);

  const loadCount = useCallback(
    () =>
      http
        .get<number | { count: number }>('/messageRemind/unreadCount', { silent: true })
        .then((n) => setUnread(typeof n === 'number' ? n : (n?.count ?? 0)))
        .catch(() => {}),
    [http],
  );
  const loadList = useCallback(
    () =>
      http
        .get<Message[]>('/messageRemind/messages', { silent: true })
        .then((rows) => setList(rows.slice(0, DROPDOWN_SIZE)))
        .catch(() => setList([])),
    [http],
  );

  useEffect(() => {
    void loadCount();
    const subs = MESSAGE_EVENTS.map((type) =>
      bus.events(type).subscribe(() => {
        void loadCount();
        if (open) void loadList();
      }),
    );
    return () => subs.forEach((s) => s.unsubscribe());
  }, [bus, loadCount, loadList, open]);

  useEffect(() => {
    if (open) void loadList();
  }, [open, loadList]);

  const go = (to: string) => {
    setOpen(false);
    void navigate(to);
  };

  const content = (
    <div className="lp-news-dropdown" style={{ width: 340, maxWidth: '90vw', padding: 8 }} data-testid="news-dropdown">
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', marginBottom: 6 }}>
        <strong>{t('news.button')}</strong>
        <Button size="small" variant="minimal" text={t('news.markAllRead')} disabled={unread === 0} onClick={() => void markRead(http, 'all').then(loadCount)} data-testid="news-dropdown-mark-all" />
      </div>
      {list === null ? null : list.length === 0 ? (
        <div className="bp6-text-muted" style={{ padding: '8px 0' }} data-testid="news-dropdown-empty">{t('news.none')}</div>
      ) : (
        <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {list.map((m) => (
            <li key={m.id} style={{ display: 'flex', gap: 6, alignItems: 'flex-start', padding: '4px 0', borderTop: '1px solid rgba(0,0,0,0.08)' }}>
              <Tag minimal intent={m.isRead ? 'none' : 'danger'} style={{ flex: 'none' }}>{m.typeName}</Tag>
              {/* Opening a message shows it whole on the message list and marks it read. */}
              <a
                href={`${MESSAGES_PATH}?open=${m.id}`}
                onClick={(e) => {
                  e.preventDefault();
                  go(`${MESSAGES_PATH}?open=${m.id}`);
                }}
                style={{ flex: 1, fontWeight: m.isRead ? 'normal' : 600, overflowWrap: 'anywhere' }}
                data-testid={`news-item-${m.id}`}
              >
                {preview(m.content, 140)}
                <div className="bp6-text-muted" style={{ fontWeight: 'normal', fontSize: 12 }}>{formatDate(m.createTime)}</div>
              </a>
              {!m.isRead && (
                <Button size="small" variant="minimal" text={t('news.markRead')} onClick={() => void markRead(http, [m.id]).then(() => Promise.all([loadCount(), loadList()]))} data-testid={`news-item-read-${m.id}`} />
              )}
            </li>
          ))}
        </ul>
      )}
      <div style={{ textAlign: 'right', marginTop: 6 }}>
        <Button size="small" variant="minimal" intent="primary" text={t('news.more')} onClick={() => go(MESSAGES_PATH)} data-testid="news-more" />
      </div>
    </div>
  );

  return (
    <span className="lp-news">
      <Popover isOpen={open} onInteraction={(next) => setOpen(next)} content={content} placement="bottom-end">
        <Button variant="minimal" icon="notifications" aria-label={t('news.button')} title={t('news.button')} active={open} data-testid="news-button" />
      </Popover>
      {unread > 0 ? <span className="lp-dot" data-testid="news-dot" data-count={unread} aria-label={t('news.unread', { count: unread })} /> : null}
    </span>
  );
}
