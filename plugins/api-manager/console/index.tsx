import { definePlugin } from '@linguaport/sdk/console';
import { ApiManager } from './ApiManager.js';

export default definePlugin({ id: 'api-manager', views: { ApiManager } });
