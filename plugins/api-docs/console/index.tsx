import { definePlugin } from '@linguaport/sdk/console';
import { ApiDocs } from './ApiDocs.js';

export default definePlugin({ id: 'api-docs', views: { ApiDocs } });
