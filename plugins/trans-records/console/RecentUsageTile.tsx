import { useEffect, useState } from 'react';
import { Button, Callout, Card, H5, HTMLTable, Intent, Spinner } from '@blueprintjs/core';
import { useApi, usePlatform, useTranslation, type ApiErrorInfo, type SlotViewProps } from '@linguaport/sdk/console';

interface UsageRow {
  userId: number;
  username: string;
  realName: string | null;
  totalCharacters: number;
}

/** Home tile (slot `home.tiles`): the five users who used translation last, with their characters. */
export function RecentUsageTile(_: SlotViewProps) {
  const { t, i18n } = useTranslation('transRecords');
  const api = useApi();
  const { navigate } = usePlatform();
  const [rows, setRows] = useState<UsageRow[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.get<{ records: UsageRow[] }>('/transRecords/list', { params: { pageNum: 1, pageSize: 5 }, silent: true }).then(
      (r) => live && setRows(r.records),
      (err: ApiErrorInfo) => live && setError(err.msg),
    );
    return () => {
      live = false;
    };
  }, [api]);
  return (
    <Card data-testid="tile-recent-usage" style={{ display: 'grid', gap: 8, alignContent: 'start' }}>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
        <H5 style={{ margin: 0 }}>{t('tileTitle')}</H5>
        <Button variant="minimal" size="small" endIcon="arrow-right" onClick={() => navigate('/transRecords')} text={t('tileAll')} />
      </div>
      {error && <Callout intent={Intent.DANGER}>{error}</Callout>}
      {!error && !rows && <Spinner size={20} />}
      {rows && rows.length === 0 && <span className="bp6-text-muted">{t('tileEmpty')}</span>}
      {rows && rows.length > 0 && (
        <HTMLTable compact style={{ width: '100%' }}>
          <tbody>
            {rows.map((r) => (
              <tr key={r.userId} data-testid={`recent-usage-${r.username}`}>
                <td>{r.realName || r.username}</td>
                <td style={{ textAlign: 'right' }}>{t('tileChars', { n: r.totalCharacters.toLocaleString(i18n.language) })}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </Card>
  );
}
