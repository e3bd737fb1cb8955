import { useEffect, useState } from 'react';
import { Callout, Classes, Dialog, DialogBody, H5, HTMLTable, Intent, Spinner, Tag } from '@blueprintjs/core';
import { useApi, useTranslation, type ApiErrorInfo } from '@linguaport/sdk/console';
import { NS } from './ns.js';
import { formatDate } from '@linguaport/sdk/shared';
import type { PluginDetails } from './types.js';

/** What a plugin declares: routes, menus (the permission tree's nodes) and permission keys. */
export function DetailsDialog({ id, onClose }: { id: string; onClose(): void }) {
  const { t, i18n } = useTranslation(NS);
  const api = useApi();
  const [d, setD] = useState<PluginDetails | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const zh = i18n.language.startsWith('zh');
  useEffect(() => {
    api.get<PluginDetails>(`/plugIn/details/${id}`, { silent: true }).then(setD, (err: ApiErrorInfo) => setFailed(err.msg));
  }, [api, id]);

  return (
    <Dialog isOpen onClose={onClose} title={t('detailsTitle', { id })} style={{ width: 720 }}>
      <DialogBody>
        {failed && <Callout intent={Intent.DANGER}>{failed}</Callout>}
        {!d && !failed && <Spinner size={24} />}
        {d && (
          <div data-testid="plugin-details" style={{ display: 'grid', gap: 12 }}>
            <div>
              <Tag minimal>{d.source === 'builtin' ? t('builtin') : t('package')}</Tag> {d.version} · SDK {d.sdk}
              {d.serverPart && (
                <div className={d.serverPart === 'failed' ? undefined : Classes.TEXT_MUTED} data-testid="plugin-server-part">
                  {t('serverPart')}: {d.serverPart === 'running' ? t('serverRunning') : d.serverPart === 'off' ? t('serverOff') : t('serverFailed', { error: d.serverError ?? '' })}
                </div>
              )}
            </div>
            <H5>{t('routes')}</H5>
            <HTMLTable compact>
              <tbody>
                {d.routes.map((r) => (
                  <tr key={r.path}><td><code>{r.path}</code></td><td>{r.view}</td><td>{r.menu ? t('menuRoute') : t('detailRoute', { parent: r.parent })}</td></tr>
                ))}
              </tbody>
            </HTMLTable>
            <H5>{t('menus')}</H5>
            <div>{d.menus.map((m) => <Tag key={m.key} minimal style={{ marginRight: 4 }}>{m.key}</Tag>)}</div>
            <H5>{t('permissionKeys')}</H5>
            <HTMLTable compact>
              <tbody>
                {d.permissions.map((p) => (
                  <tr key={p.key}><td><code>{p.key}</code></td><td>{p.type}</td><td>{zh ? p.name['zh-CN'] : p.name['en-US']}</td></tr>
                ))}
              </tbody>
            </HTMLTable>
            {d.recentFailures.length > 0 && (
              <>
                <H5>{t('recentFailures')}</H5>
                <HTMLTable compact>
                  <tbody>
                    {d.recentFailures.map((f, i) => (
                      <tr key={i}><td>{formatDate(f.created_at)}</td><td>{f.version}</td><td>{f.kind}</td><td>{f.message}</td></tr>
                    ))}
                  </tbody>
                </HTMLTable>
              </>
            )}
          </div>
        )}
      </DialogBody>
    </Dialog>
  );
}
