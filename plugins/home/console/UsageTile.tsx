import { useMemo, useState } from 'react';
import { HTMLSelect, HTMLTable } from '@blueprintjs/core';
import { useTranslation } from '@linguaport/sdk/console';
import { Tile, useTile } from './tiles.js';
import { UsageChart } from './UsageChart.js';
import { daysAgo, isoDay } from './format.js';
import { formatDate } from '@linguaport/sdk/shared';

interface Totals {
  characters: number;
  text: number;
  api: number;
  document: number;
  documents: number;
}

interface Usage {
  installed: boolean;
  totals?: Totals;
  daily?: Array<{ day: string; channel: 'text' | 'api' | 'document'; characters: number }>;
  users?: Array<{ userId: number; username: string | null; realName: string | null; total: number; textApi: number; document: number; documents: number; lastUsedAt: string }>;
}

const PERIODS = [7, 30, 90, 365];
const COLOURS = { text: '#2d72d2', api: '#238551', document: '#c87619' } as const;

function everyDay(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = new Date(`${from}T00:00:00`); isoDay(d) <= to; d.setDate(d.getDate() + 1)) days.push(isoDay(d));
  return days;
}

export function TotalsRow({ totals }: { totals: Totals }) {
  const { t, i18n } = useTranslation();
  const n = (v: number) => v.toLocaleString(i18n.language);
  const cells: Array<[string, number, string]> = [
    ['translatedCharacters', totals.characters, 'total-characters'],
    ['textApi', totals.text + totals.api, 'total-text-api'],
    ['documentCharacters', totals.document, 'total-document'],
    ['documents', totals.documents, 'total-documents'],
  ];
  return (
    <div style={{ display: 'grid', gridTemplateColumns: 'repeat(4, 1fr)', gap: 8 }}>
      {cells.map(([label, value, id]) => (
        <div key={id} data-testid={id} style={{ textAlign: 'center' }}>
          <div style={{ fontSize: 22, fontWeight: 600 }}>{n(value)}</div>
          <div className="bp6-text-muted">{t(label)}</div>
        </div>
      ))}
    </div>
  );
}

/** Everyone's usage over a chosen period: totals, a chart per day and channel, the top users. */
export function UsageTile() {
  const { t, i18n } = useTranslation();
  const [days, setDays] = useState(30);
  const params = useMemo(() => ({ from: daysAgo(days - 1), to: daysAgo(0) }), [days]);
  const [load] = useTile<Usage>('/home/usage', params);
  const chart = useMemo(() => {
    if (load.state !== 'ready' || !load.data.daily) return null;
    const axis = everyDay(params.from, params.to);
    const series = (['text', 'api', 'document'] as const).map((channel) => {
      const byDay = new Map(load.data.daily!.filter((d) => d.channel === channel).map((d) => [d.day, d.characters]));
      return { label: t(`channel.${channel}`), colour: COLOURS[channel], values: axis.map((d) => byDay.get(d) ?? 0) };
    });
    return { axis, series };
  }, [load, params, t]);
  return (
    <Tile
      title={t('usage')}
      load={load}
      testId="tile-usage"
      action={<HTMLSelect value={days} onChange={(e) => setDays(Number(e.currentTarget.value))} options={PERIODS.map((d) => ({ value: d, label: t('lastDays', { count: d }) }))} />}
    >
      {(usage) =>
        !usage.installed ? (
          <span className="bp6-text-muted">{t('usageNotInstalled')}</span>
        ) : (
          <>
            <TotalsRow totals={usage.totals!} />
            {chart && <UsageChart days={chart.axis} series={chart.series} dayLabel={t('chartDay')} />}
            <HTMLTable compact striped style={{ width: '100%' }}>
              <thead>
                <tr>
                  <th>{t('user')}</th>
                  <th>{t('realName')}</th>
                  <th>{t('translatedCharacters')}</th>
                  <th>{t('textApi')}</th>
                  <th>{t('documentCharacters')}</th>
                  <th>{t('documents')}</th>
                  <th>{t('lastUse')}</th>
                </tr>
              </thead>
              <tbody>
                {usage.users!.map((u) => (
                  <tr key={u.userId}>
                    <td>{u.username ?? `#${u.userId}`}</td>
                    <td>{u.realName}</td>
                    <td>{u.total.toLocaleString(i18n.language)}</td>
                    <td>{u.textApi.toLocaleString(i18n.language)}</td>
                    <td>{u.document.toLocaleString(i18n.language)}</td>
                    <td>{u.documents}</td>
                    <td>{formatDate(u.lastUsedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </>
        )
      }
    </Tile>
  );
}

/** The caller's own usage in the last 30 days. */
export function MyUsageTile() {
  const { t } = useTranslation();
  const params = useMemo(() => ({ from: daysAgo(29), to: daysAgo(0) }), []);
  const [load] = useTile<Usage>('/home/myUsage', params);
  return (
    <Tile title={t('myUsage')} load={load} testId="tile-my-usage">
      {(usage) => (usage.installed ? <TotalsRow totals={usage.totals!} /> : <span className="bp6-text-muted">{t('usageNotInstalled')}</span>)}
    </Tile>
  );
}
