import { definePlugin } from '@linguaport/sdk/console';

export default definePlugin({ id: 'trans-video', views: {} });
