import { useCallback, useEffect, useState, type ReactNode } from 'react';
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
        {h.gpu.state === 'absent' && <div className="bp6-text-muted" data-testid="gpu-absent" style={{ marginTop: 8 }}>{t(`gpuAbsent.${h.gpu.reason}`, { detail: h.gpu.detail ?? '' })}</div>}
      </Card>
      <Card data-testid="tile-service">
        <H5>
          {t('service')} <Tag minimal>{t('serviceTotal', { rss: bytes(snapshot.service.rssBytes), cpu: snapshot.service.cpuPercent ?? '…' })}</Tag>
        </H5>
        <UsageTable
          testId="service-groups"
          head={[t('serviceGroup'), t('processes')]}
          rows={snapshot.service.groups.map((g) => ({
            key: g.key,
            cells: [g.kind === 'server' ? t('groupServer') : g.kind === 'engine-node' ? t('groupNode', { name: g.label }) : t('groupOther'), g.processCount],
            usage: g,
          }))}
        />
        <Button variant="minimal" size="small" icon={showProcesses ? 'chevron-up' : 'chevron-down'} text={showProcesses ? t('hideProcesses') : t('showProcesses', { count: snapshot.service.processes.length })} onClick={() => setShowProcesses(!showProcesses)} data-testid="toggle-processes" />
        {showProcesses && (
          <UsageTable
            head={[t('process'), 'PID']}
            rows={snapshot.service.processes.map((p) => ({
              key: String(p.pid),
              cells: [<>{p.name} {p.role === 'server' && <Tag minimal intent={Intent.PRIMARY}>{t('server')}</Tag>}</>, p.pid],
              usage: p,
            }))}
          />
        )}
      </Card>
    </div>
  );
}

interface Usage {
  cpuPercent: number | null;
  rssBytes: number;
  ioReadPerSec: number | null;
  ioWritePerSec: number | null;
}

/** A service table: two leading columns of its own, then CPU, memory and IO (unknown rates shown as such). */
function UsageTable({ head, rows, testId }: { head: [string, string]; rows: { key: string; cells: [ReactNode, ReactNode]; usage: Usage }[]; testId?: string }) {
  const { t } = useTranslation();
  const rate = (v: number | null) => (v === null ? '–' : `${bytes(v)}/s`);
  return (
    <HTMLTable compact striped style={{ width: '100%' }} data-testid={testId}>
      <thead>
        <tr>
          {[...head, t('cpu'), t('memory'), t('ioRead'), t('ioWrite')].map((h) => <th key={h}>{h}</th>)}
        </tr>
      </thead>
      <tbody>
        {rows.map(({ key, cells, usage }) => (
          <tr key={key}>
            <td>{cells[0]}</td>
            <td>{cells[1]}</td>
            <td>{usage.cpuPercent === null ? '…' : `${usage.cpuPercent}%`}</td>
            <td>{bytes(usage.rssBytes)}</td>
            <td>{rate(usage.ioReadPerSec)}</td>
            <td>{rate(usage.ioWritePerSec)}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
