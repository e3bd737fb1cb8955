import { useEffect, useState } from 'react';
import { Button, Dialog, DialogBody, Spinner } from '@blueprintjs/core';
import { useApi, useTranslation } from '@linguaport/sdk/console';

/** The screenshot of one feedback, fetched with the session (an <img src> would carry no token). */
export function ScreenshotButton({ id }: { id: number }) {
  const { t } = useTranslation();
  const api = useApi();
  const [url, setUrl] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!open || url) return;
    let live = true;
    void api.get<Blob>(`/feedback/screenshot/${id}`, { responseType: 'blob' }).then((blob) => live && setUrl(URL.createObjectURL(blob)));
    return () => {
      live = false;
    };
  }, [open, url, api, id]);
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);
  return (
    <>
      <Button size="small" variant="minimal" icon="media" text={t('screenshot')} onClick={() => setOpen(true)} />
      <Dialog isOpen={open} title={t('screenshot')} onClose={() => setOpen(false)} style={{ width: 'auto', maxWidth: '90vw' }}>
        <DialogBody>{url ? <img src={url} alt={t('screenshot')} style={{ maxWidth: '80vw', maxHeight: '70vh' }} /> : <Spinner size={24} />}</DialogBody>
      </Dialog>
    </>
  );
}
