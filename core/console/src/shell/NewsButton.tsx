import { Button } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useKernel } from '../container.js';

/** The news button with an unread dot; the count follows the server's `message.created` and `messages.changed` pushes (and the news page's local events). */
export function NewsButton() {
  const { http, bus } = useKernel();
  const { t } = useTranslation('core');
  const navigate = useNavigate();
  const [unread, setUnread] = useState(0);

  useEffect(() => {
    let live = true;
    const load = () =>
      http
        .get<number | { count: number }>('/messageRemind/unreadCount', { silent: true })
        .then((n) => live && setUnread(typeof n === 'number' ? n : (n?.count ?? 0)))
        .catch(() => {});
    void load();
    const subs = ['message.created', 'messages.changed', 'message.read', 'message.deleted'].map((type) => bus.events(type).subscribe(() => void load()));
    return () => {
      live = false;
      subs.forEach((s) => s.unsubscribe());
    };
  }, [http, bus]);

  return (
    <span className="lp-news">
      <Button variant="minimal" icon="notifications" aria-label={t('news.button')} title={t('news.button')} onClick={() => void navigate('/news')} data-testid="news-button" />
      {unread > 0 ? <span className="lp-dot" data-testid="news-dot" data-count={unread} aria-label={t('news.unread', { count: unread })} /> : null}
    </span>
  );
}
