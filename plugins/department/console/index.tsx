import { definePlugin } from '@linguaport/sdk/console';
import { Departments } from './Departments.js';

export default definePlugin({ id: 'department', views: { Departments } });
