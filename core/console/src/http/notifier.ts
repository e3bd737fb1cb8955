import type { Toaster, Intent } from '@blueprintjs/core';
import type { i18n as I18n } from 'i18next';
import type { Notifier } from '@linguaport/sdk/console';
import type { Toast } from './classify.js';

export const TOAST_MS = 1500;

/** Blueprint toasts for the HTTP catalogue and for plugins (the SDK Notifier). */
export class ToastNotifier implements Notifier {
  private toaster: Promise<Toaster> | null = null;

  constructor(private readonly i18n: I18n) {}

  private get(): Promise<Toaster> {
    // Blueprint arrives as a split chunk: the login page must not wait for it.
    this.toaster ??= import('@blueprintjs/core').then((bp) => bp.OverlayToaster.create({ position: bp.Position.TOP, maxToasts: 4 }));
    return this.toaster;
  }

  show(message: string, intent: Intent, options: { onlyOne?: boolean } = {}): void {
    if (typeof document === 'undefined') return;
    void this.get().then((t) => {
      if (options.onlyOne && t.getToasts().length > 0) return;
      t.show({ message, intent, timeout: TOAST_MS });
    });
  }

  /** A catalogue toast: an i18n key of the `core` namespace or the server's own text. */
  toast(toast: Toast): void {
    const text = toast.text ?? this.i18n.t(toast.key ?? 'http.error', { ns: 'core' });
    this.show(text, toast.intent === 'warning' ? 'warning' : 'danger');
  }

  success(message: string): void { this.show(message, 'success'); }
  warning(message: string): void { this.show(message, 'warning'); }
  info(message: string): void { this.show(message, 'primary'); }
  error(message: string): void { this.show(message, 'danger'); }
}
