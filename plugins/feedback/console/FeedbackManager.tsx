import { useState } from 'react';
import { Button } from '@blueprintjs/core';
import { PageHeader, FormDialog, PagedTable, recordsLoader, SearchBar, StatusTag, useBus, usePermission, usePlatform, useTranslation } from '@linguaport/sdk/console';
import { FEEDBACK_TYPES, replySchema } from '../shared/schemas.js';
import type { FeedbackItem } from './Feedback.js';
import { ScreenshotButton } from './Screenshot.js';
import { formatDate } from '@linguaport/sdk/shared';

/** Managers: list, filter and reply; the reply reaches the reporter as a live feedback message. */
export function FeedbackManager() {
  const { t } = useTranslation();
  const { api, notify } = usePlatform();
  const perms = usePermission();
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [refresh, setRefresh] = useState(0);
  const [replying, setReplying] = useState<FeedbackItem | null>(null);
  useBus('feedback.created', () => setRefresh((n) => n + 1));

  const load = recordsLoader<FeedbackItem>(api, '/feedback/page', filters);
  return (
    <div data-testid="feedback-manager-view" style={{ padding: 20, display: 'grid', gap: 12 }}>
      <PageHeader title={t('managerTitle')} />
      <SearchBar
        fields={[
          { name: 'keyword', label: t('content') },
          { name: 'reporter', label: t('reporter') },
          { name: 'type', label: t('type'), type: 'select', options: [{ value: '', label: t('all') }, ...FEEDBACK_TYPES.map((v) => ({ value: v, label: t(`types.${v}`) }))] },
          { name: 'status', label: t('status'), type: 'select', options: [{ value: '', label: t('all') }, { value: 'open', label: t('open') }, { value: 'replied', label: t('replied') }] },
          { name: 'from', label: t('from'), type: 'date' },
          { name: 'to', label: t('to'), type: 'date' },
        ]}
        onSearch={(v) => setFilters(Object.fromEntries(Object.entries(v).filter(([, x]) => x !== '')))}
      />
      <PagedTable<FeedbackItem>
        testId="feedback"
        rowKey={(r) => r.id}
        load={load}
        reloadKey={filters}
        refreshKey={refresh}
        columns={[
          { key: 'reporterName', title: t('reporter') },
          { key: 'createdAt', title: t('time'), render: (r) => formatDate(r.createdAt) },
          { key: 'type', title: t('type'), render: (r) => t(`types.${r.type}`) },
          { key: 'content', title: t('content') },
          { key: 'status', title: t('status'), render: (r) => <StatusTag value={r.reply ? 'replied' : 'open'} states={{ replied: { label: t('replied'), intent: 'success' }, open: { label: t('open'), intent: 'warning' } }} /> },
          { key: 'reply', title: t('reply'), render: (r) => r.reply ?? '' },
          {
            key: 'actions',
            title: t('actions'),
            render: (r) => (
              <>
                {r.hasScreenshot && <ScreenshotButton id={r.id} />}
                {perms.hasButton('feedback:reply') && <Button size="small" variant="minimal" icon="chat" data-testid={`feedback-reply-${r.id}`} text={t(r.reply ? 'replyAgain' : 'replyAction')} onClick={() => setReplying(r)} />}
              </>
            ),
          },
        ]}
      />
      <FormDialog
        isOpen={replying !== null}
        title={t('replyTo', { name: replying?.reporterName ?? '' })}
        schema={replySchema}
        initialValues={{ id: replying?.id, reply: replying?.reply ?? '' }}
        fields={[
          { name: 'content', label: t('content'), type: 'custom', render: () => <div className="bp6-running-text">{replying?.content}</div> },
          { name: 'reply', label: t('reply'), type: 'textarea', required: true },
        ]}
        onClose={() => setReplying(null)}
        onSubmit={async (values) => {
          await api.put('/feedback/reply', { id: replying!.id, reply: values.reply });
          notify.success(t('replySent'));
          setReplying(null);
          setRefresh((n) => n + 1);
        }}
      />
    </div>
  );
}
