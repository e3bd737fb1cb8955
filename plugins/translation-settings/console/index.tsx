import { definePlugin } from '@linguaport/sdk/console';
import { TranslationSettings } from './TranslationSettings.js';
import { AdminSettings } from './AdminSettings.js';

export default definePlugin({ id: 'translation-settings', views: { TranslationSettings, AdminSettings } });
