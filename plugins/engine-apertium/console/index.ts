import { definePlugin } from '@linguaport/sdk/console';

// An engine adapter has no screen of its own: its nodes are managed in the engine-management area,
// whose form reads the adapter's fields from the server. The build still wants a console module.
export default definePlugin({ id: 'engine-apertium', views: {} });
