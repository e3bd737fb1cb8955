import { definePlugin } from '@linguaport/sdk/console';
import { DictionaryTypes } from './DictionaryTypes.js';
import { DictionaryEntries } from './DictionaryEntries.js';

export default definePlugin({ id: 'dictionary', views: { DictionaryTypes, DictionaryEntries } });
