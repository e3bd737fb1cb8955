import { useState } from 'react';
import { Button, Callout, Card, FileInput, FormGroup, H3, H5, HTMLSelect, Intent, TextArea } from '@blueprintjs/core';
import { PagedTable, recordsLoader, StatusTag, usePermission, usePlatform, useTranslation } from '@linguaport/sdk/console';
import { FEEDBACK_TYPES, MAX_SCREENSHOT_BYTES, feedbackSchema } from '../shared/schemas.js';
import { ScreenshotButton } from './Screenshot.js';
import { formatDate } from '@linguaport/sdk/shared';

export interface FeedbackItem {
  id: number;
  reporterName: string;
  type: 'system' | 'internal';
  content: string;
  hasScreenshot: boolean;
  reply: string | null;
  replierName: string | null;
  repliedAt: string | null;
  createdAt: string;
}

/** Send feedback (content required, type, optional screenshot) and follow one's own. */
export function Feedback() {
  const { t, i18n } = useTranslation();
  const { api, notify } = usePlatform();
  const perms = usePermission();
  const [content, setContent] = useState('');
  const [type, setType] = useState<string>('system');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [refresh, setRefresh] = useState(0);

  const submit = async () => {
    const parsed = feedbackSchema.safeParse({ content, type });
    const found: Record<string, string> = {};
    if (!parsed.success) for (const i of parsed.error.issues) found[String(i.path[0])] = i18n.exists(i.message) ? t(i.message) : t('required');
    if (file && file.size >= MAX_SCREENSHOT_BYTES) found.screenshot = t('tooLarge');
    if (file && !/^image\/(png|jpeg|gif|webp)$/.test(file.type)) found.screenshot = t('notImage');
    setErrors(found);
    if (Object.keys(found).length || !parsed.success) return;
    const form = new FormData();
    form.append('content', parsed.data.content);
    form.append('type', parsed.data.type);
    if (file) form.append('screenshot', file, file.name);
    setBusy(true);
    try {
      await api.post('/feedback/add', form);
      notify.success(t('sent'));
      setContent('');
      setFile(null);
      setRefresh((n) => n + 1);
    } finally {
      setBusy(false);
    }
  };

  const load = recordsLoader<FeedbackItem>(api, '/feedback/mine', {});
  return (
    <div data-testid="feedback-view" style={{ padding: 20, display: 'grid', gap: 16 }}>
      <H3>{t('title')}</H3>
      {perms.hasButton('feedback:submit') ? (
        <Card>
          <H5>{t('newFeedback')}</H5>
          <FormGroup label={t('type')} labelFor="feedback-type">
            <HTMLSelect id="feedback-type" value={type} onChange={(e) => setType(e.currentTarget.value)} options={FEEDBACK_TYPES.map((v) => ({ value: v, label: t(`types.${v}`) }))} />
          </FormGroup>
          <FormGroup label={t('content')} labelFor="feedback-content" labelInfo="*" intent={errors.content ? Intent.DANGER : Intent.NONE} helperText={errors.content}>
            <TextArea id="feedback-content" data-testid="feedback-content" fill rows={5} value={content} onChange={(e) => setContent(e.currentTarget.value)} intent={errors.content ? Intent.DANGER : Intent.NONE} />
          </FormGroup>
          <FormGroup label={t('screenshot')} labelFor="feedback-screenshot" intent={errors.screenshot ? Intent.DANGER : Intent.NONE} helperText={errors.screenshot ?? t('screenshotHelp')}>
            <FileInput
              inputProps={{ id: 'feedback-screenshot', accept: 'image/png,image/jpeg,image/gif,image/webp' }}
              text={file?.name ?? t('chooseFile')}
              buttonText={t('browse')}
              hasSelection={!!file}
              onInputChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)}
            />
          </FormGroup>
          <Button intent={Intent.PRIMARY} data-testid="feedback-submit" loading={busy} text={t('submit')} onClick={() => void submit()} />
        </Card>
      ) : (
        <Callout intent={Intent.NONE}>{t('cannotSubmit')}</Callout>
      )}
      <H5>{t('myFeedback')}</H5>
      <PagedTable<FeedbackItem>
        testId="my-feedback"
        rowKey={(r) => r.id}
        load={load}
        refreshKey={refresh}
        columns={[
          { key: 'createdAt', title: t('time'), render: (r) => formatDate(r.createdAt) },
          { key: 'type', title: t('type'), render: (r) => t(`types.${r.type}`) },
          { key: 'content', title: t('content') },
          { key: 'status', title: t('status'), render: (r) => <StatusTag value={r.reply ? 'replied' : 'open'} states={{ replied: { label: t('replied'), intent: 'success' }, open: { label: t('open'), intent: 'warning' } }} /> },
          { key: 'reply', title: t('reply'), render: (r) => r.reply ?? '' },
          { key: 'screenshot', title: t('screenshot'), render: (r) => (r.hasScreenshot ? <ScreenshotButton id={r.id} /> : '') },
        ]}
      />
    </div>
  );
}
