import { useCallback, useEffect, useState } from 'react';
import { Button, Callout, Card, H4, HTMLTable, Intent, Tag } from '@blueprintjs/core';
import { definePlugin, useApi, useNotify, usePermission, useTranslation, type ApiErrorInfo } from '@linguaport/sdk/console';

interface Engine {
  id: number;
  name: string;
  imageName: string;
  sourceLanguage: string | null;
  targetLanguage: string | null;
  domain: string | null;
  consumer: string | null;
  nodeIds: number[];
  expiresAt: string | null;
  enabled: boolean;
  containerCount: number;
}
interface EngineNode {
  id: number;
  kind: string;
  containerName: string;
  ip: string | null;
  baseUrl: string | null;
  running: boolean;
  health: 'unknown' | 'healthy' | 'unhealthy' | 'stopped';
  lastError: string | null;
  pairs: { source: string; target: string }[];
}

const HEALTH_INTENT: Record<EngineNode['health'], Intent> = { healthy: Intent.SUCCESS, unhealthy: Intent.DANGER, stopped: Intent.NONE, unknown: Intent.WARNING };

function EngineCard({ engine, onChanged }: { engine: Engine; onChanged(): void }) {
  const { t } = useTranslation();
  const api = useApi();
  const notify = useNotify();
  const permissions = usePermission();
  const [nodes, setNodes] = useState<EngineNode[]>([]);
  const [busy, setBusy] = useState<number | null>(null);

  const load = useCallback(() => {
    api.get<{ nodes: EngineNode[] }>('/translServiceInfo/getServiceInfo', { params: { id: engine.id }, silent: true }).then((r) => setNodes(r.nodes), () => {});
  }, [api, engine.id]);
  useEffect(load, [load]);

  const control = async (node: EngineNode, action: 'start' | 'stop') => {
    setBusy(node.id);
    try {
      await api.get(`/translServiceNode/${action}TranslationService`, { params: { id: node.id }, silent: true });
      notify.success(t(action === 'start' ? 'started' : 'stopped', { name: node.containerName }));
    } catch (err) {
      notify.error((err as ApiErrorInfo).msg);
    } finally {
      setBusy(null);
      load();
    }
  };

  const uploadLicence = async (file: File | undefined) => {
    if (!file) return;
    const form = new FormData();
    form.append('engineId', String(engine.id));
    form.append('file', file);
    try {
      await api.post('/translServiceNode/uploadAuthorizationFile', form, { silent: true });
      notify.success(t('licenceAccepted'));
      onChanged();
    } catch (err) {
      // The server says why (not signed by a trusted key, expired, wrong engine, node limit).
      notify.error(t('licenceRefused', { msg: (err as ApiErrorInfo).msg }));
    }
  };

  const expired = engine.expiresAt && new Date(engine.expiresAt).getTime() < Date.now();
  return (
    <Card data-testid={`engine-${engine.id}`}>
      <H4>
        {engine.name} <Tag minimal>{engine.imageName}</Tag> {!engine.enabled && <Tag intent={Intent.WARNING}>{t('disabled')}</Tag>}{' '}
        {expired && <Tag intent={Intent.DANGER}>{t('expired')}</Tag>}
      </H4>
      <div style={{ color: '#5f6b7c', marginBottom: 8 }}>
        {t('direction')}: {engine.sourceLanguage ?? t('any')} → {engine.targetLanguage ?? t('any')} · {t('domain')}: {engine.domain ?? '—'} · {t('containers')}: {engine.containerCount} · {t('expires')}:{' '}
        {engine.expiresAt ? new Date(engine.expiresAt).toLocaleDateString() : t('never')}
      </div>
      {permissions.hasButton('service:licence') && (
        <label className="bp6-button bp6-small" style={{ marginBottom: 8 }}>
          {t('uploadLicence')}
          <input type="file" hidden data-testid="upload-licence" accept=".lic,.json,application/json" onChange={(e) => void uploadLicence(e.currentTarget.files?.[0])} />
        </label>
      )}
      <div style={{ overflowX: 'auto' }}>
        <HTMLTable compact striped>
          <thead>
            <tr>
              <th>{t('node')}</th>
              <th>{t('kind')}</th>
              <th>{t('address')}</th>
              <th>{t('health')}</th>
              <th>{t('pairs')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {nodes.map((n) => (
              <tr key={n.id} data-testid={`node-${n.id}`}>
                <td>{n.containerName}</td>
                <td>{n.kind}</td>
                <td>{n.baseUrl ?? n.ip ?? ''}</td>
                <td>
                  <Tag intent={HEALTH_INTENT[n.health]} title={n.lastError ?? ''} data-testid="node-health">{t(`health_${n.health}`)}</Tag>
                </td>
                <td>{n.pairs.length}</td>
                <td>
                  {permissions.hasButton('service:control') &&
                    (n.running ? (
                      <Button small icon="stop" data-testid="stop-node" loading={busy === n.id} onClick={() => control(n, 'stop')} text={t('stop')} />
                    ) : (
                      <Button small icon="play" intent={Intent.PRIMARY} data-testid="start-node" loading={busy === n.id} onClick={() => control(n, 'start')} text={t('start')} />
                    ))}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
    </Card>
  );
}

/** Engine management (/service): engines with their nodes, health, start and stop. */
function Service() {
  const { t } = useTranslation();
  const api = useApi();
  const [engines, setEngines] = useState<Engine[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    api.get<{ list: Engine[] }>('/translServiceInfo/getTranslationServiceByPage', { params: { pageNum: 1, pageSize: 100 }, silent: true }).then(
      (r) => setEngines(r.list),
      (err: ApiErrorInfo) => setError(err.msg),
    );
  }, [api]);
  useEffect(load, [load]);
  return (
    <div data-testid="service-view" style={{ padding: 16, display: 'grid', gap: 12 }}>
      {error && <Callout intent={Intent.DANGER}>{t('loadFailed', { msg: error })}</Callout>}
      {engines?.length === 0 && <Callout>{t('noEngines')}</Callout>}
      {engines?.map((e) => <EngineCard key={e.id} engine={e} onChanged={load} />)}
    </div>
  );
}

export default definePlugin({ id: 'service', views: { Service } });
