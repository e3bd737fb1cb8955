import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { bp, cx } from './bp.js';

/** A Blueprint-styled button without Blueprint's JavaScript (see bp.ts). */
export function PlainButton({ intent, fill, minimal, busy, text, className, ...rest }: ButtonHTMLAttributes<HTMLButtonElement> & {
  intent?: 'primary' | 'danger';
  fill?: boolean;
  minimal?: boolean;
  busy?: boolean;
  text: string;
}) {
  return (
    <button
      type="button"
      {...rest}
      disabled={rest.disabled || busy}
      aria-busy={busy || undefined}
      className={cx(bp.button, intent === 'primary' && bp.primary, intent === 'danger' && bp.danger, fill && bp.fill, minimal && bp.minimal, (rest.disabled || busy) && bp.disabled, className)}
    >
      <span className={bp.buttonText}>{text}</span>
    </button>
  );
}

export function PlainCallout({ intent, children, ...rest }: { intent: 'danger' | 'warning'; children: ReactNode; 'data-testid'?: string; className?: string }) {
  return (
    <div role="alert" data-testid={rest['data-testid']} className={cx(bp.callout, intent === 'danger' ? bp.danger : bp.warning, rest.className)}>
      {children}
    </div>
  );
}

export function PlainNonIdeal({ title, description, action, testId }: { title: string; description: string; action?: ReactNode; testId?: string }) {
  return (
    <div className={bp.nonIdeal} data-testid={testId}>
      <div>
        <h4 className={bp.heading}>{title}</h4>
        <div>{description}</div>
      </div>
      {action}
    </div>
  );
}

/**
 * A modal on the login path with Blueprint's dialog classes. It does not close on an outside click
 * (spec 01 section 9); only its own buttons close it.
 */
export function PlainDialog({ title, children, testId, width = 600 }: { title: string; children: ReactNode; testId?: string; width?: number }) {
  return (
    <div className="bp6-overlay bp6-overlay-open lp-plain-overlay">
      <div className="bp6-overlay-backdrop" />
      <div className="lp-plain-dialog-container">
        <div className="bp6-dialog" role="dialog" aria-modal="true" aria-label={title} data-testid={testId} style={{ width, maxWidth: '95vw' }}>
          <div className="bp6-dialog-header"><h4 className="bp6-heading">{title}</h4></div>
          <div className="bp6-dialog-body">{children}</div>
        </div>
      </div>
    </div>
  );
}

export function PlainField({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className={bp.formGroup}>
      <label className={bp.label} htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}
