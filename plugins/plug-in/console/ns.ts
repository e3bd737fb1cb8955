/** The i18n namespace of this plugin (plugin.json `i18n`); it differs from the plugin id `plug-in`. */
export const NS = 'plugIn';
