import { Button, Icon, InputGroup, Popover, type IconName } from '@blueprintjs/core';
import { useEffect, useMemo, useState } from 'react';
import { useApi, useTranslation } from '@linguaport/sdk/console';

let cached: Promise<string[]> | null = null;

/** Picks a Blueprint icon by name; the name list is fetched on first open, not bundled. */
export function IconPicker({ value, onChange }: { value: string; onChange: (name: string) => void }) {
  const { t } = useTranslation();
  const api = useApi();
  const [open, setOpen] = useState(false);
  const [names, setNames] = useState<string[]>([]);
  const [query, setQuery] = useState('');

  useEffect(() => {
    if (!open || names.length) return;
    cached ??= api.get<string[]>('/limit/iconNames', { silent: true }).catch((e) => { cached = null; throw e; });
    cached.then(setNames, () => setNames([]));
  }, [api, open, names.length]);

  const shown = useMemo(() => names.filter((n) => n.includes(query.trim().toLowerCase())).slice(0, 160), [names, query]);

  return (
    <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
      <InputGroup value={value} onChange={(e) => onChange(e.currentTarget.value)} placeholder="application" leftElement={value ? <Icon icon={value as IconName} style={{ margin: 7 }} /> : undefined} data-testid="icon-input" />
      <Popover
        isOpen={open}
        onInteraction={(next) => setOpen(next)}
        placement="bottom-end"
        content={
          <div style={{ padding: 8, width: 360 }}>
            <InputGroup leftIcon="search" placeholder={t('iconSearch')} value={query} onChange={(e) => setQuery(e.currentTarget.value)} autoFocus />
            <div style={{ display: 'grid', gridTemplateColumns: 'repeat(8, 1fr)', gap: 4, marginTop: 8, maxHeight: 260, overflow: 'auto' }}>
              {shown.map((n) => (
                <Button key={n} variant="minimal" title={n} icon={n as IconName} active={n === value} onClick={() => { onChange(n); setOpen(false); }} data-testid={`icon-${n}`} />
              ))}
            </div>
            {names.length > shown.length && <small className="bp6-text-muted">{t('iconMore', { count: names.length - shown.length })}</small>}
          </div>
        }
      >
        <Button text={t('iconPick')} data-testid="icon-pick" />
      </Popover>
    </div>
  );
}
