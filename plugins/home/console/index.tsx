import { definePlugin } from '@linguaport/sdk/console';
import { Home } from './Home.js';

export default definePlugin({ id: 'home', views: { Home } });
