import { definePlugin } from '@linguaport/sdk/console';
import { LanguageSorting } from './LanguageSorting.js';

export default definePlugin({ id: 'language-sorting', views: { LanguageSorting } });
