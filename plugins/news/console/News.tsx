import { useCallback, useEffect, useState } from 'react';
import { Button, ButtonGroup, HTMLSelect, Intent, Tag } from '@blueprintjs/core';
import { ConfirmDialog, PageHeader, PagedTable, useBus, usePlatform, useTranslation, type PageQuery, type PageResult } from '@linguaport/sdk/console';
import { formatDate, type MessageRow } from '@linguaport/sdk/shared';

/** One message of `GET /api/messageRemind/messagesByPage` (kernel message centre). */
type Message = MessageRow;

interface MessagePage {
  records: Message[];
  total: number;
}

type ReadFilter = 'all' | 'unread' | 'read';

/**
 * The full message list. Every change here goes through the kernel's calls, which publish
 * `messages.changed` to the owner: the top bar's unread dot and other open tabs follow it.
 */
export function News() {
  const { t } = useTranslation();
  const { api, notify, bus } = usePlatform();
  const [types, setTypes] = useState<Array<{ type: string; name: string }>>([]);
  const [type, setType] = useState('');
  const [read, setRead] = useState<ReadFilter>('all');
  const [refresh, setRefresh] = useState(0);
  const [selected, setSelected] = useState<Message[]>([]);
  const [deleting, setDeleting] = useState<Message[] | null>(null);
  const [unread, setUnread] = useState<number | null>(null);

  useEffect(() => {
    void api.get<Array<{ type: string; name: string }>>('/messageRemind/types', { silent: true }).then(setTypes, () => setTypes([]));
  }, [api]);
  const reload = useCallback(() => setRefresh((n) => n + 1), []);
  useBus('message.created', reload);
  useBus('messages.changed', reload);
  useEffect(() => {
    void api.get<number>('/messageRemind/unreadCount', { silent: true }).then(setUnread, () => setUnread(null));
  }, [api, refresh]);

  const load = async (q: PageQuery): Promise<PageResult<Message>> => {
    const params: Record<string, unknown> = { pageNum: q.page, pageSize: q.pageSize };
    if (type) params.type = type;
    if (read !== 'all') params.isRead = read === 'read';
    const page = await api.get<MessagePage>('/messageRemind/messagesByPage', { params });
    return { rows: page.records, total: page.total };
  };
  const markRead = async (ids: number[] | 'all') => {
    const res = await api.put<{ updated: number }>('/messageRemind/updateMessages', ids === 'all' ? { all: true } : { ids });
    notify.success(t('markedRead', { count: res.updated }));
    // The shell's unread dot listens for these in this tab (the kernel's messages.changed reaches other tabs).
    bus.emit({ type: 'message.read', payload: {} });
    reload();
  };

  return (
    <div data-testid="news-view" style={{ padding: 20, display: 'grid', gap: 12 }}>
      <PageHeader
        title={t('heading')}
        subtitle={unread !== null && <Tag round intent={unread ? Intent.DANGER : Intent.NONE} data-testid="news-unread-count">{t('unreadCount', { count: unread })}</Tag>}
        actions={<Button icon="tick-circle" data-testid="news-mark-all" disabled={unread === 0} text={t('markAll')} onClick={() => void markRead('all')} />}
      />
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center' }}>
        <HTMLSelect data-testid="news-type" value={type} onChange={(e) => setType(e.currentTarget.value)} options={[{ value: '', label: t('allTypes') }, ...types.map((x) => ({ value: x.type, label: x.name }))]} />
        <ButtonGroup>
          {(['all', 'unread', 'read'] as const).map((r) => (
            <Button key={r} active={read === r} text={t(`filter.${r}`)} onClick={() => setRead(r)} data-testid={`news-filter-${r}`} />
          ))}
        </ButtonGroup>
        <Button icon="tick" disabled={!selected.some((m) => !m.isRead)} text={t('markSelected')} onClick={() => void markRead(selected.filter((m) => !m.isRead).map((m) => m.id))} />
        <Button icon="trash" intent={Intent.DANGER} disabled={!selected.length} text={t('deleteSelected')} onClick={() => setDeleting(selected)} />
      </div>
      <PagedTable<Message>
        testId="news"
        rowKey={(m) => m.id}
        load={load}
        reloadKey={`${type}|${read}`}
        refreshKey={refresh}
        selectable
        onSelectionChange={(_, rows) => setSelected(rows)}
        emptyText={t('empty')}
        columns={[
          { key: 'isRead', title: t('status'), width: 90, render: (m) => <Tag minimal intent={m.isRead ? Intent.NONE : Intent.DANGER}>{m.isRead ? t('read') : t('unread')}</Tag> },
          { key: 'typeName', title: t('type'), width: 120 },
          { key: 'content', title: t('content'), render: (m) => <span style={{ fontWeight: m.isRead ? 'normal' : 600 }}>{m.content}</span> },
          { key: 'createTime', title: t('time'), width: 180, render: (m) => formatDate(m.createTime) },
          {
            key: 'actions',
            title: t('actions'),
            width: 200,
            render: (m) => (
              <>
                {!m.isRead && <Button size="small" variant="minimal" icon="tick" text={t('markRead')} onClick={() => void markRead([m.id])} />}
                <Button size="small" variant="minimal" intent={Intent.DANGER} icon="trash" text={t('delete')} onClick={() => setDeleting([m])} />
              </>
            ),
          },
        ]}
      />
      <ConfirmDialog
        isOpen={deleting !== null}
        title={t('deleteTitle')}
        message={t('deleteMessage')}
        count={deleting?.length}
        items={deleting?.map((m) => m.content.slice(0, 35))}
        intent="danger"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await api.delete('/messageRemind/delete', { params: { ids: deleting!.map((m) => m.id).join(',') } });
          bus.emit({ type: 'message.deleted', payload: {} });
          setDeleting(null);
          reload();
        }}
      />
    </div>
  );
}
