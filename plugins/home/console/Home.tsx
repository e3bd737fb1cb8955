import { useCallback, useEffect, useState } from 'react';
import { Button, Card, Callout, H3, H5, Intent, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { Slot, useApi, useSession, useTranslation, type ApiErrorInfo } from '@linguaport/sdk/console';
import { MyUsageTile } from './UsageTile.js';
import { DownloadsTile, MessagesTile, ShortcutsTile, TILE_GRID } from './tiles.js';

interface Health {
  status: 'ok' | 'degraded';
  database: { ok: boolean; kind: 'pglite' | 'postgres' };
  queue: { ok: boolean };
  engines: EngineHealth[];
}

interface EngineHealth {
  id: number;
  name: string;
  enabled: boolean;
  expired: boolean;
  ready: boolean;
  nodes: { id: number; health: string }[];
}

const engineState = (e: EngineHealth) =>
  !e.enabled ? 'disabled' : e.expired ? 'expired' : e.ready ? 'ready' : e.nodes.some((n) => n.health === 'starting') ? 'starting' : 'down';

type Load = { state: 'loading' } | { state: 'failed'; msg: string } | { state: 'ready'; health: Health };

export function Home() {
  const { t } = useTranslation();
  const api = useApi();
  const session = useSession().current();
  const [load, setLoad] = useState<Load>({ state: 'loading' });

  const refresh = useCallback(() => {
    setLoad({ state: 'loading' });
    api
      .get<Health>('/health', { silent: true })
      .then((health) => setLoad({ state: 'ready', health }))
      .catch((err: ApiErrorInfo) => setLoad({ state: 'failed', msg: err.msg }));
  }, [api]);

  useEffect(refresh, [refresh]);

  const name = session.user?.realName || session.user?.username || '';
  return (
    <div data-testid="home-view" style={{ padding: 20, display: 'grid', gap: 16 }}>
      <div>
        <H3>{t('welcome', { name })}</H3>
        {session.departmentName && <span className="bp6-text-muted">{t('department', { name: session.departmentName })}</span>}
      </div>
      <div style={TILE_GRID}>
        <ShortcutsTile />
        <MessagesTile />
        <MyUsageTile />
        <DownloadsTile />
        <Slot name="home.tiles" />
      </div>
      <Card>
        <H5>{t('status')}</H5>
        {load.state === 'loading' && <NonIdealState icon={<Spinner size={24} />} description={t('loading')} />}
        {load.state === 'failed' && (
          <Callout intent={Intent.DANGER}>
            {t('loadFailed', { msg: load.msg })} <Button size="small" onClick={refresh} text={t('retry')} />
          </Callout>
        )}
        {load.state === 'ready' && (
          <table className="bp6-html-table bp6-compact" style={{ width: '100%' }}>
            <tbody>
              <Row label={t('database')} ok={load.health.database.ok} detail={t(load.health.database.kind)} okText={t('ok')} downText={t('down')} />
              <Row label={t('queue')} ok={load.health.queue.ok} okText={t('ok')} downText={t('down')} />
              <EnginesRow engines={load.health.engines} />
            </tbody>
          </table>
        )}
      </Card>
    </div>
  );
}

function EnginesRow({ engines }: { engines: EngineHealth[] }) {
  const { t } = useTranslation();
  const ready = engines.filter((e) => e.ready).length;
  return (
    <tr data-testid="home-engines">
      <td>{t('engines')}</td>
      <td>
        {engines.length === 0 ? t('enginesNone') : (
          <>
            <Tag intent={ready ? Intent.SUCCESS : Intent.DANGER} minimal>{t('enginesReady', { ready, count: engines.length })}</Tag>{' '}
            {engines.map((e, i) => (
              <span key={e.id}>{i > 0 && ' · '}{e.name} ({t(`engineState.${engineState(e)}`)})</span>
            ))}
          </>
        )}
      </td>
    </tr>
  );
}

function Row(props: { label: string; ok: boolean; detail?: string; okText: string; downText: string }) {
  return (
    <tr>
      <td>{props.label}</td>
      <td>
        <Tag intent={props.ok ? Intent.SUCCESS : Intent.DANGER} minimal>
          {props.ok ? props.okText : props.downText}
        </Tag>{' '}
        {props.detail}
      </td>
    </tr>
  );
}
