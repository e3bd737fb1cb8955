import { definePlugin } from '@linguaport/sdk/console';
import { Limit } from './Limit.js';

export default definePlugin({ id: 'limit', views: { Limit } });
