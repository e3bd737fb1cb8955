import { definePlugin } from '@linguaport/sdk/console';
import { OperationLog } from './OperationLog.js';

export default definePlugin({ id: 'operation-log', views: { OperationLog } });
