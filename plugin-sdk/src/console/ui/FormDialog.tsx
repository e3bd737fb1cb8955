import { Button, Callout, Checkbox, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, TextArea } from '@blueprintjs/core';
import { useEffect, useState, type ReactNode } from 'react';
import type { FormDialogProps, FormField, FormValues } from './types.js';
import { useKitText } from './useKitText.js';

/**
 * A form dialog (600 px unless told) that an outside click does not close. The zod schema (the same one the
 * server uses) runs before submit and each issue shows beside its field in the current language;
 * a server 400 whose msg names fields (`name: text; other: text`) is placed beside them too,
 * anything else shows above the form.
 */
export function FormDialog(props: FormDialogProps): ReactNode {
  const { isOpen, title, fields, schema, initialValues, onSubmit, onClose, submitText, width = 600 } = props;
  const { t, issue } = useKitText();
  const [values, setValues] = useState<FormValues>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!isOpen) return;
    setValues({ ...(initialValues ?? {}) });
    setErrors({});
    setServerError(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isOpen]);

  function setValue(name: string, value: unknown) {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => { const { [name]: _gone, ...rest } = e; return rest; });
  }

  function validate(all: FormValues): Record<string, string> {
    if (!schema) return {};
    const result = schema.safeParse(all);
    if (result.success) return {};
    const found: Record<string, string> = {};
    for (const i of result.error.issues) {
      const name = String(i.path[0] ?? '');
      if (!(name in found)) found[name] = issue(i.message, (i as { params?: Record<string, unknown> }).params);
    }
    return found;
  }

  async function runCheck(field: FormField) {
    if (!field.check) return;
    const message = await field.check(values[field.name], values);
    if (message) setErrors((e) => ({ ...e, [field.name]: message }));
  }

  async function submit() {
    const found = validate(values);
    for (const f of fields) {
      if (found[f.name] || !f.check) continue;
      const message = await f.check(values[f.name], values);
      if (message) found[f.name] = message;
    }
    setErrors(found);
    setServerError(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await onSubmit(values);
    } catch (error) {
      const msg = (error as { msg?: string })?.msg ?? String(error);
      const placed = placeServerMessage(msg, fields);
      if (placed) setErrors(Object.fromEntries(Object.entries(placed).map(([k, v]) => [k, issue(v)])));
      else setServerError(msg);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog isOpen={isOpen} title={title} onClose={onClose} canOutsideClickClose={false} style={{ width, maxWidth: 'calc(100vw - 24px)' }}>
      <form className="lp-form" onSubmit={(e) => { e.preventDefault(); void submit(); }} noValidate>
        <DialogBody>
          {serverError && <Callout intent="danger" data-testid="form-server-error" style={{ marginBottom: 12 }}>{serverError}</Callout>}
          {/* One grid for every field: labels share one column, fields one left edge (host styles.css). */}
          <div className="lp-form-grid" data-testid="form-fields">
            {fields.map((f) => (
              <FormGroup
                key={f.name}
                label={f.label}
                labelFor={`field-${f.name}`}
                labelInfo={f.required ? '*' : undefined}
                helperText={errors[f.name] ? <span data-testid={`error-${f.name}`}>{errors[f.name]}</span> : f.helperText}
                intent={errors[f.name] ? 'danger' : 'none'}
                inline
                contentClassName="lp-form-control"
              >
                <Control field={f} value={values[f.name]} values={values} error={!!errors[f.name]} onChange={(v) => setValue(f.name, v)} onBlur={() => void runCheck(f)} selectText={t('select')} />
              </FormGroup>
            ))}
          </div>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('cancel')} onClick={onClose} disabled={busy} />
              <Button type="submit" intent="primary" text={submitText ?? t('save')} loading={busy} data-testid="form-submit" />
            </>
          }
        />
      </form>
    </Dialog>
  );
}

function Control(props: {
  field: FormField;
  value: unknown;
  values: FormValues;
  error: boolean;
  onChange: (value: unknown) => void;
  onBlur: () => void;
  selectText: string;
}): ReactNode {
  const { field: f, value, error, onChange, onBlur } = props;
  const id = `field-${f.name}`;
  const intent = error ? 'danger' : 'none';
  switch (f.type) {
    case 'custom':
      return f.render?.(value, onChange, props.values) ?? null;
    case 'textarea':
      return <TextArea id={id} fill value={String(value ?? '')} disabled={f.disabled} intent={intent} onChange={(e) => onChange(e.currentTarget.value)} onBlur={onBlur} />;
    case 'checkbox':
      return <Checkbox id={id} checked={!!value} disabled={f.disabled} onChange={(e) => onChange(e.currentTarget.checked)} />;
    case 'select':
      return (
        <HTMLSelect
          id={id}
          fill
          value={value === undefined || value === null ? '' : String(value)}
          disabled={f.disabled}
          onChange={(e) => {
            const raw = e.currentTarget.value;
            const option = f.options?.find((o) => String(o.value) === raw);
            onChange(raw === '' ? undefined : option ? option.value : raw);
          }}
          options={[{ value: '', label: f.placeholder ?? props.selectText }, ...(f.options ?? []).map((o) => ({ value: String(o.value), label: o.label }))]}
        />
      );
    case 'multiselect': {
      const chosen = new Set(Array.isArray(value) ? value.map(String) : []);
      return (
        <div id={id} style={{ display: 'flex', flexWrap: 'wrap', gap: '0 12px' }}>
          {(f.options ?? []).map((o) => (
            <Checkbox
              key={String(o.value)}
              label={o.label}
              checked={chosen.has(String(o.value))}
              disabled={f.disabled}
              onChange={() => {
                const list = (f.options ?? []).filter((x) => (String(x.value) === String(o.value) ? !chosen.has(String(o.value)) : chosen.has(String(x.value))));
                onChange(list.map((x) => x.value));
              }}
            />
          ))}
        </div>
      );
    }
    default: {
      const type = f.type === 'datetime' ? 'datetime-local' : f.type ?? 'text';
      return (
        <InputGroup
          id={id}
          type={type}
          fill
          value={value === undefined || value === null ? '' : String(value)}
          placeholder={f.placeholder}
          disabled={f.disabled}
          intent={intent}
          onChange={(e) => {
            const raw = e.currentTarget.value;
            onChange(f.type === 'number' ? (raw === '' ? undefined : Number(raw)) : raw);
          }}
          onBlur={onBlur}
        />
      );
    }
  }
}

/**
 * The kernel's 400 msg (`body.field: message; body.other: message`, in the request's language, or a
 * plugin's i18n key the form translates) mapped onto the form's fields, or null when some part names
 * no field of the form.
 */
export function placeServerMessage(msg: string, fields: FormField[]): Record<string, string> | null {
  const names = new Set(fields.map((f) => f.name));
  const placed: Record<string, string> = {};
  for (const part of msg.replace(/^(Invalid request: |请求无效：)/, '').split('; ')) {
    const at = part.indexOf(': ');
    const name = at > 0 ? part.slice(0, at).replace(/^(body|query|params)\./, '').split('.')[0]! : '';
    if (!names.has(name)) return null;
    placed[name] = part.slice(at + 2);
  }
  return Object.keys(placed).length > 0 ? placed : null;
}
