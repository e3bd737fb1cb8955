import { definePlugin } from '@linguaport/sdk/console';
import { PlugIn } from './PlugIn.js';

export default definePlugin({ id: 'plug-in', views: { PlugIn } });
