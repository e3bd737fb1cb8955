import { definePlugin } from '@linguaport/sdk/console';
import { Domains } from './Domains.js';

export default definePlugin({ id: 'domain', views: { Domains } });
