import { definePlugin } from '@linguaport/sdk/console';
import { Deploy } from './Deploy.js';

export default definePlugin({ id: 'deploy', views: { Deploy } });
