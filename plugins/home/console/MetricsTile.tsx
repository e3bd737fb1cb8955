import { useCallback, useEffect, useState } from 'react';
import { Button, Callout, Card, H5, HTMLTable, Intent, Spinner, Tag } from '@blueprintjs/core';
import { useApi, useBus, useTranslation, type ApiErrorInfo } from '@linguaport/sdk/console';
import type { MetricsSnapshot } from '../server/metrics.js';
import { Gauge } from './Gauge.js';
import { bytes, percent } from './format.js';
import { formatDate } from '@linguaport/sdk/shared';

const RENEW_MS = 10_000;

/**
 * Live gauges. Opening the tile takes a lease on the server's sampler (GET ?watch=1, renewed while
 * open, given back on close), so the host is only sampled while someone looks.
 */
export function MetricsTile() {
  const { t } = useTranslation();
  const api = useApi();
  const [snapshot, setSnapshot] = useState<MetricsSnapshot | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [showProcesses, setShowProcesses] = useState(false);

  useEffect(() => {
    let live = true;
    const watch = () =>
      api
        .get<MetricsSnapshot>('/home/metrics', { params: { watch: '1' }, silent: true })
        .then((s) => live && setSnapshot(s))
        .catch((err: ApiErrorInfo) => live && setError(err.msg));
    void watch();
    const timer = setInterval(() => void watch(), RENEW_MS);
    return () => {
      live = false;
      clearInterval(timer);
      void api.get('/home/metrics', { params: { watch: '0' }, silent: true }).catch(() => {});
    };
  }, [api]);
  useBus<MetricsSnapshot>(
    'home.metrics',
    useCallback((e) => setSnapshot(e.payload), []),
  );

  if (error) return <Callout intent={Intent.DANGER}>{t('loadFailed', { msg: error })}</Callout>;
  if (!snapshot) return <Card><Spinner size={24} /></Card>;
  const h = snapshot.host;
  const gpu = h.gpu.state === 'present' ? h.gpu.devices : [];
  const gpuUtil = gpu.length ? gpu.reduce((a, g) => a + g.utilization, 0) / gpu.length : null;
  return (
    <div style={{ display: 'grid', gap: 16 }}>
      <Card data-testid="tile-host">
        <H5>
          {t('host')} <span className="bp6-text-muted" style={{ fontSize: 12, fontWeight: 'normal' }}>{t('updated', { time: formatDate(snapshot.at, 'HH:mm:ss') })}</span>
        </H5>
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 24, justifyContent: 'space-around' }}>
          <Gauge testId="gauge-memory" label={t('memory')} value={percent(h.memoryUsed, h.memoryTotal)} detail={`${bytes(h.memoryUsed)} / ${bytes(h.memoryTotal)}`} />
          <Gauge testId="gauge-cpu" label={t('cpu')} value={h.cpuPercent} detail={t('cores', { count: h.cpuCount, load: h.loadAverage[0]?.toFixed(2) })} />
          <Gauge testId="gauge-gpu" label={t('gpu')} value={gpuUtil} unavailable={h.gpu.state === 'absent' ? t('noGpu') : undefined} detail={gpu.map((g) => `${g.name} ${g.memoryUsedMb}/${g.memoryTotalMb} MB`).join('; ')} />
          <Gauge testId="gauge-disk" label={t('disk')} value={percent(h.diskUsed, h.diskTotal)} detail={`${bytes(h.diskUsed)} / ${bytes(h.diskTotal)}`} />
          <div data-testid="gauge-io" style={{ display: 'grid', alignContent: 'center', gap: 6, minWidth: 140 }}>
            <strong>{t('io')}</strong>
            <span>{t('ioRead')}: {h.ioReadPerSec === null ? '…' : `${bytes(h.ioReadPerSec)}/s`}</span>
            <span>{t('ioWrite')}: {h.ioWritePerSec === null ? '…' : `${bytes(h.ioWritePerSec)}/s`}</span>
          </div>
        </div>
        {h.gpu.state === 'absent' && <div className="bp6-text-muted" data-testid="gpu-absent" style={{ marginTop: 8 }}>{t('noGpuReason', { reason: h.gpu.reason })}</div>}
      </Card>
      <Card data-testid="tile-service">
        <H5>
          {t('service')} <Tag minimal>{t('serviceTotal', { rss: bytes(snapshot.service.rssBytes), cpu: snapshot.service.cpuPercent ?? '…' })}</Tag>
        </H5>
        <HTMLTable compact striped style={{ width: '100%' }} data-testid="service-groups">
          <thead>
            <tr>
              <th>{t('serviceGroup')}</th>
              <th>{t('processes')}</th>
              <th>{t('cpu')}</th>
              <th>{t('memory')}</th>
              <th>{t('ioRead')}</th>
              <th>{t('ioWrite')}</th>
            </tr>
          </thead>
          <tbody>
            {snapshot.service.groups.map((g) => (
              <tr key={g.key}>
                <td>{g.kind === 'server' ? t('groupServer') : g.kind === 'engine-node' ? t('groupNode', { name: g.label }) : t('groupOther')}</td>
                <td>{g.processCount}</td>
                <td>{g.cpuPercent === null ? '…' : `${g.cpuPercent}%`}</td>
                <td>{bytes(g.rssBytes)}</td>
                <td>{g.ioReadPerSec === null ? '–' : `${bytes(g.ioReadPerSec)}/s`}</td>
                <td>{g.ioWritePerSec === null ? '–' : `${bytes(g.ioWritePerSec)}/s`}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
        <Button variant="minimal" size="small" icon={showProcesses ? 'chevron-up' : 'chevron-down'} text={showProcesses ? t('hideProcesses') : t('showProcesses', { count: snapshot.service.processes.length })} onClick={() => setShowProcesses(!showProcesses)} data-testid="toggle-processes" />
        {showProcesses && (
          <HTMLTable compact striped style={{ width: '100%' }}>
            <thead>
              <tr>
                <th>{t('process')}</th>
                <th>PID</th>
                <th>{t('cpu')}</th>
                <th>{t('memory')}</th>
                <th>{t('ioRead')}</th>
                <th>{t('ioWrite')}</th>
              </tr>
            </thead>
            <tbody>
              {snapshot.service.processes.map((p) => (
                <tr key={p.pid}>
                  <td>{p.name} {p.role === 'server' && <Tag minimal intent={Intent.PRIMARY}>{t('server')}</Tag>}</td>
                  <td>{p.pid}</td>
                  <td>{p.cpuPercent === null ? '…' : `${p.cpuPercent}%`}</td>
                  <td>{bytes(p.rssBytes)}</td>
                  <td>{p.ioReadPerSec === null ? '–' : `${bytes(p.ioReadPerSec)}/s`}</td>
                  <td>{p.ioWritePerSec === null ? '–' : `${bytes(p.ioWritePerSec)}/s`}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </Card>
    </div>
  );
}
