import { H3 } from '@blueprintjs/core';
import { usePermission, useSession, useTranslation } from '@linguaport/sdk/console';
import { MetricsTile } from './MetricsTile.js';
import { OperationsTile } from './OperationsTile.js';
import { MyUsageTile, UsageTile } from './UsageTile.js';
import { DownloadsTile, MessagesTile, ShortcutsTile, TILE_GRID } from './tiles.js';

/**
 * `/dashboard`: the administrator's variant (gauges, everyone's usage, operations) for holders of
 * the home keys, the editor's variant (own usage, shortcuts, messages, downloads) for everyone else.
 */
export function Dashboard() {
  const { t } = useTranslation();
  const perms = usePermission();
  const session = useSession().current();
  const metrics = perms.hasButton('home:metrics');
  const usage = perms.hasButton('home:usage');
  const operations = perms.hasButton('home:operations');
  const admin = metrics || usage || operations;
  return (
    <div data-testid={admin ? 'dashboard-admin' : 'dashboard-editor'} style={{ padding: 20, display: 'grid', gap: 16 }}>
      <H3>{t(admin ? 'dashboardAdmin' : 'dashboardEditor', { name: session.user?.realName || session.user?.username || '' })}</H3>
      {metrics && <MetricsTile />}
      <div style={TILE_GRID}>
        {usage ? <UsageTile /> : <MyUsageTile />}
        {operations && <OperationsTile />}
        <ShortcutsTile />
        <MessagesTile />
        <DownloadsTile />
      </div>
    </div>
  );
}
