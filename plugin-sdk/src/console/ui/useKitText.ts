import { useTranslation } from 'react-i18next';
import { validationMessage } from '../../shared/validation-messages.js';
import { kitText, type KitText } from './messages.js';

/** The kit's texts and validation messages in the console's current language (re-renders on a switch). */
export function useKitText() {
  const { i18n } = useTranslation();
  const lng = i18n?.language;
  return {
    lng,
    t: (key: KitText, params?: Record<string, unknown>) => kitText(lng, key, params),
    /** A zod issue message: a plugin i18n key if the plugin has it, else an SDK validation key, else as is. */
    issue: (message: string, params?: Record<string, unknown>) =>
      i18n?.exists?.(message) ? String(i18n.t(message, params)) : validationMessage(message, lng ?? '', params),
  };
}
