import { useCallback, useEffect, useState } from 'react';
import { Button, Callout, H3, HTMLTable, Intent, NonIdealState, Spinner } from '@blueprintjs/core';
import { definePlugin, useApi, usePermission, useTranslation, type ApiErrorInfo } from '@linguaport/sdk/console';

/** One row of `GET /api/trans-file/items`. */
interface Item {
  id: number;
  name: string;
  createdAt: string;
}

type Load = { state: 'loading' } | { state: 'failed'; msg: string } | { state: 'ready'; items: Item[] };

function TransFile() {
  const { t } = useTranslation();
  const api = useApi();
  const permissions = usePermission();
  const [load, setLoad] = useState<Load>({ state: 'loading' });

  const refresh = useCallback(() => {
    setLoad({ state: 'loading' });
    api
      .get<Item[]>('/trans-file/items', { silent: true })
      .then((items) => setLoad({ state: 'ready', items }))
      .catch((err: ApiErrorInfo) => setLoad({ state: 'failed', msg: err.msg }));
  }, [api]);

  useEffect(refresh, [refresh]);

  return (
    <div data-testid="trans-file-view" style={{ padding: 20, display: 'grid', gap: 16 }}>
      <H3>{t('heading')}</H3>
      {/* The button shows only with the permission; the server checks the same key on the call. */}
      {permissions.hasButton('trans-file:view') && (
        <div>
          <Button icon="refresh" onClick={refresh} text={t('refresh')} />
        </div>
      )}
      {load.state === 'loading' && <NonIdealState icon={<Spinner size={24} />} description={t('loading')} />}
      {load.state === 'failed' && <Callout intent={Intent.DANGER}>{t('loadFailed', { msg: load.msg })}</Callout>}
      {load.state === 'ready' && load.items.length === 0 && <NonIdealState icon="inbox" description={t('empty')} />}
      {load.state === 'ready' && load.items.length > 0 && (
        <HTMLTable striped compact>
          <thead>
            <tr>
              <th>{t('name')}</th>
              <th>{t('createdAt')}</th>
            </tr>
          </thead>
          <tbody>
            {load.items.map((item) => (
              <tr key={item.id}>
                <td>{item.name}</td>
                <td>{new Date(item.createdAt).toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </div>
  );
}

export default definePlugin({ id: 'trans-file', views: { TransFile } });
