import { Button, Checkbox, Dialog, DialogBody, DialogFooter, HTMLTable } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useKernel } from '../container.js';
import { ENGINE_NOTICE_KEY, shouldShowEngineNotice, type ExpiringEngine } from './engine-notice.js';

export const ENGINE_EXPIRY_FLAG = 'ENGINE_EXPIRY_NOTICE';

/**
 * Expired or soon-expiring engines (GET /translServiceInfo/getExpiredEngine), shown once per sign-in
 * when the system-config permission ENGINE_EXPIRY_NOTICE is 1, and again when the server pushes
 * `engine.expiring` on the bus, unless the user chose not to be reminded for 3 days.
 */
export function EngineNotice({ version }: { version: number }) {
  const { http, permissions, bus } = useKernel();
  const { t } = useTranslation('core');
  const [engines, setEngines] = useState<ExpiringEngine[]>([]);
  const [open, setOpen] = useState(false);
  const [snooze, setSnooze] = useState(false);
  const [tick, setTick] = useState(0);
  const flag = permissions.hasSystemConfig(ENGINE_EXPIRY_FLAG);

  useEffect(() => {
    const sub = bus.events('engine.expiring').subscribe(() => setTick((n) => n + 1));
    return () => sub.unsubscribe();
  }, [bus]);

  useEffect(() => {
    if (!flag) return;
    let live = true;
    http
      .get<ExpiringEngine[]>('/translServiceInfo/getExpiredEngine', { silent: true })
      .then((list) => {
        if (!live) return;
        setEngines(list ?? []);
        setOpen(shouldShowEngineNotice(flag, list ?? [], localStorage.getItem(ENGINE_NOTICE_KEY), new Date()));
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [flag, version > 0, tick]);

  const close = () => {
    if (snooze) localStorage.setItem(ENGINE_NOTICE_KEY, new Date().toISOString());
    setOpen(false);
  };

  return (
    <Dialog isOpen={open} onClose={close} title={t('engine.title')} canOutsideClickClose={false} style={{ width: 600 }}>
      <DialogBody>
        <HTMLTable compact striped data-testid="engine-notice">
          <thead><tr><th>{t('engine.name')}</th><th>{t('engine.state')}</th></tr></thead>
          <tbody>
            {engines.map((e) => (
              <tr key={e.imagesAlias}>
                <td>{e.imagesAlias}</td>
                <td>{e.daysBetween <= 0 ? t('engine.expired') : t('engine.daysLeft', { count: e.daysBetween })}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </DialogBody>
      <DialogFooter
        actions={<Button intent="primary" text={t('app.ok')} onClick={close} data-testid="engine-notice-ok" />}
      >
        <Checkbox checked={snooze} label={t('engine.snooze')} onChange={(e) => setSnooze(e.currentTarget.checked)} data-testid="engine-notice-snooze" />
      </DialogFooter>
    </Dialog>
  );
}
