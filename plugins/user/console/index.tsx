import { definePlugin } from '@linguaport/sdk/console';
import { Users } from './Users.js';

export default definePlugin({ id: 'user', views: { Users } });
