import { definePlugin } from '@linguaport/sdk/console';
import { TransFile } from './TransFile.js';

export default definePlugin({ id: 'trans-file', views: { TransFile } });
