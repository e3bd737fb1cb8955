import { definePlugin } from '@linguaport/sdk/console';
import { Home } from './Home.js';
import { Dashboard } from './Dashboard.js';

export default definePlugin({ id: 'home', views: { Home, Dashboard } });
