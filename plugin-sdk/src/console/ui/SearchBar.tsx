import { Button, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { useState, type ReactNode } from 'react';
import type { SearchBarProps } from './types.js';
import { useKitText } from './useKitText.js';

/** Filter fields on one line with search and reset; Enter in a text field searches. */
export function SearchBar({ fields, onSearch, onReset, initialValues, actions }: SearchBarProps): ReactNode {
  const { t } = useKitText();
  const empty = Object.fromEntries(fields.map((f) => [f.name, '']));
  const [values, setValues] = useState<Record<string, string>>({ ...empty, ...initialValues });
  const set = (name: string, value: string) => setValues((v) => ({ ...v, [name]: value }));
  const search = () => onSearch(Object.fromEntries(Object.entries(values).filter(([, v]) => v !== '')));

  return (
    <form
      className="lp-search-bar"
      style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'flex-end', marginBottom: 12 }}
      onSubmit={(e) => { e.preventDefault(); search(); }}
    >
      {fields.map((f) => (
        <FormGroup key={f.name} label={f.label} labelFor={`search-${f.name}`} inline style={{ margin: 0 }}>
          {f.type === 'select' ? (
            <HTMLSelect
              id={`search-${f.name}`}
              value={values[f.name] ?? ''}
              onChange={(e) => set(f.name, e.currentTarget.value)}
              options={[{ value: '', label: f.placeholder ?? t('select') }, ...(f.options ?? [])]}
            />
          ) : (
            <InputGroup
              id={`search-${f.name}`}
              type={f.type === 'date' ? 'date' : f.type === 'datetime' ? 'datetime-local' : 'text'}
              value={values[f.name] ?? ''}
              placeholder={f.placeholder}
              onChange={(e) => set(f.name, e.currentTarget.value)}
            />
          )}
        </FormGroup>
      ))}
      <Button type="submit" intent="primary" text={t('search')} data-testid="search-submit" />
      <Button
        text={t('reset')}
        data-testid="search-reset"
        onClick={() => { setValues(empty); if (onReset) onReset(); else onSearch({}); }}
      />
      {actions && <div style={{ marginLeft: 'auto', display: 'flex', gap: 8 }}>{actions}</div>}
    </form>
  );
}
