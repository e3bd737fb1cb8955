import { definePlugin } from '@linguaport/sdk/console';
import { Roles } from './Roles.js';

export default definePlugin({ id: 'role', views: { Roles } });
