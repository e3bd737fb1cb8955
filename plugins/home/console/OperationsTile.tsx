import { HTMLTable, Intent, Tag } from '@blueprintjs/core';
import { useTranslation } from '@linguaport/sdk/console';
import { Tile, useTile } from './tiles.js';
import { formatDate } from '@linguaport/sdk/shared';

interface Operation {
  id: number;
  module: string;
  /** The module's name in the reader's language. */
  moduleName?: string;
  message: string;
  operatorName: string | null;
  method: string;
  outcome: 'success' | 'failure';
  createdAt: string;
}

export function OperationsTile() {
  const { t } = useTranslation();
  const [load] = useTile<Operation[]>('/home/operations', { limit: 8 });
  return (
    <Tile title={t('operations')} load={load} testId="tile-operations">
      {(list) =>
        list.length === 0 ? (
          <span className="bp6-text-muted">{t('noOperations')}</span>
        ) : (
          // Long names and messages wrap, and what still cannot scrolls inside the card, never past it.
          <div style={{ overflowX: 'auto' }}>
          <HTMLTable compact style={{ width: '100%' }}>
            <tbody>
              {list.map((o) => (
                <tr key={o.id}>
                  <td><Tag minimal intent={o.outcome === 'success' ? Intent.SUCCESS : Intent.DANGER}>{o.moduleName ?? o.module}</Tag></td>
                  <td style={{ overflowWrap: 'anywhere' }}>{o.message}</td>
                  <td>{o.operatorName}</td>
                  <td className="bp6-text-muted" style={{ whiteSpace: 'nowrap' }}>{formatDate(o.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          </div>
        )
      }
    </Tile>
  );
}
