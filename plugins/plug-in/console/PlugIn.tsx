import { useCallback, useEffect, useState } from 'react';
import { Button, Callout, HTMLTable, Intent, Switch, Tab, Tabs, Tag } from '@blueprintjs/core';
import { PageHeader, ConfirmDialog, useApi, useBus, useNotify, usePermission, useTranslation, type ApiErrorInfo } from '@linguaport/sdk/console';
import { NS } from './ns.js';
import { formatDate } from '@linguaport/sdk/shared';
import { DetailsDialog } from './DetailsDialog.js';
import { TrustedKeys } from './TrustedKeys.js';
import type { PluginRow } from './types.js';
import { UploadDialog } from './UploadDialog.js';

type Load = { state: 'loading' } | { state: 'failed'; msg: string } | { state: 'ready'; rows: PluginRow[] };

/** `/plugIn`: uploaded packages, built-in feature areas and trusted publisher keys. */
export function PlugIn() {
  const { t } = useTranslation(NS);
  const permissions = usePermission();
  const [tab, setTab] = useState<string>('packages');
  return (
    <div data-testid="plug-in-view" style={{ padding: 20 }}>
      <PageHeader title={t('heading')} />
      <Tabs id="plug-in-tabs" selectedTabId={tab} onChange={(id) => setTab(String(id))} renderActiveTabPanelOnly>
        <Tab id="packages" title={t('tabPackages')} panel={<Plugins source="package" />} data-testid="tab-packages" />
        <Tab id="builtin" title={t('tabBuiltin')} panel={<Plugins source="builtin" />} data-testid="tab-builtin" />
        {permissions.hasButton('plugIn:trustedKeys') && <Tab id="keys" title={t('tabKeys')} panel={<TrustedKeys />} data-testid="tab-keys" />}
      </Tabs>
    </div>
  );
}

function Plugins({ source }: { source: 'package' | 'builtin' }) {
  const { t, i18n } = useTranslation(NS);
  const api = useApi();
  const notify = useNotify();
  const permissions = usePermission();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [uploading, setUploading] = useState(false);
  const [details, setDetails] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<PluginRow | null>(null);
  const zh = i18n.language.startsWith('zh');

  const refresh = useCallback(() => {
    api
      .get<{ records: PluginRow[] }>('/plugIn/list', { params: { source, pageSize: 200 }, silent: true })
      .then((r) => setLoad({ state: 'ready', rows: r.records }))
      .catch((err: ApiErrorInfo) => setLoad({ state: 'failed', msg: err.msg }));
  }, [api, source]);
  useEffect(refresh, [refresh]);
  // Another administrator's change (or this one's, on another instance) arrives as registry.changed.
  useBus('registry.changed', refresh);

  const act = async (call: () => Promise<unknown>, done: string) => {
    await call();
    notify.success(done);
    refresh();
  };

  if (load.state === 'loading') return <Callout>{t('loading')}</Callout>;
  if (load.state === 'failed') return <Callout intent={Intent.DANGER}>{t('loadFailed', { msg: load.msg })}</Callout>;

  return (
    <div style={{ display: 'grid', gap: 12 }}>
      {source === 'package' && permissions.hasButton('plugIn:upload') && (
        <div>
          <Button icon="upload" intent={Intent.PRIMARY} text={t('upload')} onClick={() => setUploading(true)} data-testid="plugin-upload-open" />
        </div>
      )}
      {source === 'builtin' && <div className="bp6-text-muted">{t('builtinHint')}</div>}
      {load.rows.length === 0 ? (
        <Callout data-testid="plugin-empty">{t('empty')}</Callout>
      ) : (
        <HTMLTable compact striped style={{ width: '100%' }} data-testid={`plugin-table-${source}`}>
          <thead>
            <tr>
              {source === 'package' && <th>{t('logo')}</th>}
              <th>{t('name')}</th>
              <th>{t('version')}</th>
              <th>{t('type')}</th>
              {source === 'package' && <th>{t('fileName')}</th>}
              <th>{t('description')}</th>
              <th>{source === 'package' ? t('published') : t('enabled')}</th>
              <th>{t('updateTime')}</th>
              {source === 'package' && <th>{t('publisher')}</th>}
              {source === 'package' && <th>{t('signature')}</th>}
              <th>{t('health')}</th>
              <th>{t('actions')}</th>
            </tr>
          </thead>
          <tbody>
            {load.rows.map((p) => (
              <tr key={p.id} data-testid={`plugin-row-${p.id}`}>
                {source === 'package' && <td>{p.logo ? <img src={p.logo} alt="" width={46} height={46} style={{ objectFit: 'contain' }} /> : null}</td>}
                <td>
                  {zh ? p.name['zh-CN'] : p.name['en-US']}
                  <div className="bp6-text-muted">{p.id}</div>
                </td>
                <td>
                  {p.version}
                  {p.stagedVersion && <Tag minimal intent={Intent.PRIMARY} style={{ marginLeft: 4 }}>{t('staged', { version: p.stagedVersion })}</Tag>}
                </td>
                <td>{t(`type_${p.type}`)}</td>
                {source === 'package' && <td>{p.fileName}</td>}
                <td>{p.description}</td>
                <td data-testid={`plugin-state-${p.id}`}>
                  {source === 'package' ? (
                    <Tag intent={p.published ? Intent.SUCCESS : Intent.NONE}>{p.published ? t('yes') : t('no')}</Tag>
                  ) : (
                    <Switch
                      checked={p.enabled}
                      disabled={!permissions.hasButton('plugIn:feature') || !p.deployed || p.id === 'plug-in'}
                      label={p.deployed ? (p.enabled ? t('on') : t('off')) : t('notDeployed')}
                      onChange={() => void act(() => api.post(`/plugIn/enable/${p.id}`, { enabled: !p.enabled }), p.enabled ? t('disabledDone') : t('enabledDone'))}
                      data-testid={`plugin-enable-${p.id}`}
                    />
                  )}
                </td>
                <td>{formatDate(p.updateTime)}</td>
                {source === 'package' && <td><code>{p.publisher}</code></td>}
                {source === 'package' && <td><Tag minimal intent={p.signatureState === 'verified' ? Intent.SUCCESS : Intent.WARNING}>{t(`sig_${p.signatureState}`, { defaultValue: p.signatureState })}</Tag></td>}
                <td data-testid={`plugin-health-${p.id}`}>
                  {p.flagged ? <Tag intent={Intent.DANGER} icon="warning-sign">{t('flagged', { count: p.failures, users: p.failureUsers })}</Tag> : p.failures ? t('failures', { count: p.failures }) : t('healthy')}
                  {p.serverPart === 'failed' && (
                    <Tag intent={Intent.DANGER} icon="error" title={p.serverError ?? undefined} style={{ marginLeft: 4 }} data-testid={`plugin-server-failed-${p.id}`}>{t('serverFailedShort')}</Tag>
                  )}
                </td>
                <td style={{ whiteSpace: 'nowrap' }}>
                  <Button small variant="minimal" text={t('details')} onClick={() => setDetails(p.id)} data-testid={`plugin-details-${p.id}`} />
                  {source === 'package' && permissions.hasButton('plugIn:publish') && (
                    p.published ? (
                      <Button small variant="minimal" intent={Intent.WARNING} text={t('unpublish')} onClick={() => void act(() => api.post(`/plugIn/unpublish/${p.id}`), t('unpublishedDone'))} data-testid={`plugin-unpublish-${p.id}`} />
                    ) : (
                      <Button small variant="minimal" intent={Intent.SUCCESS} text={t('publish')} onClick={() => void act(() => api.post(`/plugIn/publish/${p.id}`), t('publishedDone'))} data-testid={`plugin-publish-${p.id}`} />
                    )
                  )}
                  {source === 'package' && permissions.hasButton('plugIn:publish') && (
                    <Button small variant="minimal" text={p.enabled ? t('disable') : t('enable')} onClick={() => void act(() => api.post(`/plugIn/enable/${p.id}`, { enabled: !p.enabled }), p.enabled ? t('disabledDone') : t('enabledDone'))} data-testid={`plugin-enable-${p.id}`} />
                  )}
                  {source === 'package' && permissions.hasButton('plugIn:upload') && p.stagedVersion && (
                    <Button small variant="minimal" intent={Intent.PRIMARY} text={t('upgrade', { version: p.stagedVersion })} onClick={() => void act(() => api.post(`/plugIn/upgrade/${p.id}`), t('upgradedDone'))} data-testid={`plugin-upgrade-${p.id}`} />
                  )}
                  {source === 'package' && permissions.hasButton('plugIn:upload') && p.previousVersion && (
                    <Button small variant="minimal" text={t('rollback', { version: p.previousVersion })} onClick={() => void act(() => api.post(`/plugIn/rollback/${p.id}`), t('rolledBackDone'))} data-testid={`plugin-rollback-${p.id}`} />
                  )}
                  {source === 'package' && permissions.hasButton('plugIn:delete') && (
                    <Button small variant="minimal" intent={Intent.DANGER} text={t('delete')} onClick={() => setDeleting(p)} data-testid={`plugin-delete-${p.id}`} />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      <UploadDialog isOpen={uploading} onClose={() => setUploading(false)} onUploaded={() => { setUploading(false); refresh(); }} />
      {details && <DetailsDialog id={details} onClose={() => setDetails(null)} />}
      <ConfirmDialog
        isOpen={!!deleting}
        title={t('deleteTitle')}
        message={t('deleteMessage', { name: deleting ? (zh ? deleting.name['zh-CN'] : deleting.name['en-US']) : '' })}
        count={1}
        items={deleting ? [deleting.id] : []}
        intent="danger"
        onConfirm={async () => {
          if (deleting) await act(() => api.delete(`/plugIn/delete/${deleting.id}`), t('deletedDone'));
          setDeleting(null);
        }}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}
