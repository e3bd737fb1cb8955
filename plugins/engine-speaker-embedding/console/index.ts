import { definePlugin } from '@linguaport/sdk/console';

// A speaker adapter has no screen of its own: its nodes are added, shown and started on the engines
// screen (/service). The build still wants a console module.
export default definePlugin({ id: 'engine-speaker-embedding', views: {} });
