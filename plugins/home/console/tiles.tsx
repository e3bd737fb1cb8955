import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Button, Callout, Card, H5, HTMLTable, Intent, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useApi, useBus, usePlatform, useTranslation, type ApiErrorInfo } from '@linguaport/sdk/console';
import { formatDate, type MessageRow } from '@linguaport/sdk/shared';

export type TileLoad<T> = { state: 'loading' } | { state: 'absent' } | { state: 'failed'; msg: string } | { state: 'ready'; data: T };

/**
 * Loads one tile's data. A 404 means the area behind it is not installed (its plugin is off or
 * absent): the tile says so instead of showing zeros.
 */
export function useTile<T>(url: string | null, params?: Record<string, unknown>, reloadOn: string[] = []): [TileLoad<T>, () => void] {
  const api = useApi();
  // Named things (shortcut menu names, message types) come from the server in the request's language:
  // a language switch without reload loads them again.
  const { i18n } = useTranslation();
  const language = i18n.language;
  const [load, setLoad] = useState<TileLoad<T>>({ state: 'loading' });
  const [tick, setTick] = useState(0);
  const key = JSON.stringify(params ?? {});
  useEffect(() => {
    if (!url) return;
    let live = true;
    api
      .get<T>(url, { params: JSON.parse(key) as Record<string, unknown>, silent: true })
      .then((data) => live && setLoad({ state: 'ready', data }))
      .catch((err: ApiErrorInfo) => live && setLoad(err.status === 404 || err.code === 404 ? { state: 'absent' } : { state: 'failed', msg: err.msg }));
    return () => {
      live = false;
    };
  }, [api, url, key, tick, language]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  for (const type of reloadOn) useBus(type, reload); // the list of events is fixed per tile
  return [load, reload];
}

/**
 * The tiles' grid: as many columns as fit at 360 px or more (two at 1440 px beside the menu), never a
 * column wider than the content; each tile keeps its contents inside (long words wrap, a wide table scrolls in the tile).
 */
export const TILE_GRID = { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 360px), 1fr))', gap: 16, alignItems: 'start' } as const;

export function Tile<T>(props: { title: string; load: TileLoad<T>; testId: string; action?: ReactNode; children: (data: T) => ReactNode }) {
  const { t } = useTranslation();
  return (
    <Card data-testid={props.testId} style={{ display: 'grid', gap: 8, alignContent: 'start', minWidth: 0, overflowWrap: 'anywhere', overflowX: 'auto' }}>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
        <H5 style={{ margin: 0 }}>{props.title}</H5>
        {props.action}
      </div>
      {props.load.state === 'loading' && <Spinner size={20} />}
      {props.load.state === 'absent' && <NonIdealState icon="disable" description={t('notInstalled')} className="tile-absent" />}
      {props.load.state === 'failed' && <Callout intent={Intent.DANGER}>{t('loadFailed', { msg: props.load.msg })}</Callout>}
      {props.load.state === 'ready' && props.children(props.load.data)}
    </Card>
  );
}

interface QuickMenu {
  id: number;
  permissionName: string;
  path: string;
  icon: string | null;
  shortcutImage: string | null;
}

export function ShortcutsTile() {
  const { t } = useTranslation();
  const { navigate } = usePlatform();
  const [load] = useTile<QuickMenu[]>('/permissionMenu/getQuickMenu', undefined, ['permissions.changed']);
  return (
    <Tile title={t('shortcuts')} load={load} testId="tile-shortcuts">
      {(items) =>
        items.length === 0 ? (
          <span className="bp6-text-muted">{t('noShortcuts')}</span>
        ) : (
          <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(110px, 1fr))', gap: 8 }}>
            {items.map((m) => (
              <Button key={m.id} variant="outlined" onClick={() => navigate(m.path)} style={{ height: 72, flexDirection: 'column' }} data-testid={`shortcut-${m.path}`}>
                {m.shortcutImage ? <img src={m.shortcutImage} alt="" style={{ width: 28, height: 28, objectFit: 'contain', display: 'block', margin: '0 auto 4px' }} /> : null}
                {m.permissionName}
              </Button>
            ))}
          </div>
        )
      }
    </Tile>
  );
}

type Message = MessageRow;

export function MessagesTile() {
  const { t } = useTranslation();
  const { navigate } = usePlatform();
  const [load] = useTile<Message[]>('/messageRemind/messages', undefined, ['message.created', 'messages.changed', 'message.read', 'message.deleted']);
  // More opens the kernel's /messages, which every signed-in user may read (the /news menu may not be granted).
  return (
    <Tile title={t('messages')} load={load} testId="tile-messages" action={<Button size="small" variant="minimal" text={t('more')} onClick={() => navigate('/messages')} data-testid="tile-messages-more" />}>
      {(list) =>
        list.length === 0 ? (
          <span className="bp6-text-muted">{t('noMessages')}</span>
        ) : (
          <HTMLTable compact style={{ width: '100%' }}>
            <tbody>
              {list.slice(0, 6).map((m) => (
                <tr key={m.id}>
                  <td style={{ width: 80 }}><Tag minimal intent={m.isRead ? Intent.NONE : Intent.DANGER}>{m.typeName}</Tag></td>
                  <td style={{ fontWeight: m.isRead ? 'normal' : 600 }}>{m.content.length > 35 ? `${m.content.slice(0, 35)}...` : m.content}</td>
                  <td style={{ whiteSpace: 'nowrap' }} className="bp6-text-muted">{formatDate(m.createTime)}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )
      }
    </Tile>
  );
}

interface Download {
  id: string;
  name: string;
  version: string;
  description: string | null;
  logo: string | null;
  fileName: string | null;
  url: string | null;
}

export function DownloadsTile() {
  const { t } = useTranslation();
  const api = useApi();
  const [load] = useTile<Download[]>('/plugIn/downloads', undefined, ['registry.changed']);
  // The file is behind sign-in (the Jwt header), so it is fetched and saved rather than linked.
  const save = async (d: Download) => {
    const blob = await api.get<Blob>(`/plugIn/download/${d.id}`, { responseType: 'blob' });
    const href = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = href;
    a.download = d.fileName ?? d.id;
    a.click();
    setTimeout(() => URL.revokeObjectURL(href), 1000);
  };
  return (
    <Tile title={t('downloads')} load={load} testId="tile-downloads">
      {(list) =>
        list.length === 0 ? (
          <span className="bp6-text-muted">{t('noDownloads')}</span>
        ) : (
          <HTMLTable compact style={{ width: '100%' }}>
            <tbody>
              {list.map((d) => (
                <tr key={d.id}>
                  <td style={{ width: 40 }}>{d.logo && <img src={d.logo} alt="" width={28} height={28} />}</td>
                  <td>
                    <strong>{d.name}</strong> <Tag minimal>{d.version}</Tag>
                    <div className="bp6-text-muted">{d.description}</div>
                  </td>
                  <td>{d.url && <Button minimal small text={t('download')} onClick={() => void save(d)} />}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )
      }
    </Tile>
  );
}
