/** The interface language of a request; one rule for the kernel and the plugins (in the SDK). */
export { requestLocale as localeOf } from '@linguaport/sdk/server';
