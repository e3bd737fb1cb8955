import { definePlugin } from '@linguaport/sdk/console';
import { News } from './News.js';

export default definePlugin({ id: 'news', views: { News } });
