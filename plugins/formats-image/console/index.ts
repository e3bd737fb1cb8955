import { definePlugin } from '@linguaport/sdk/console';

// File formats have no screen of their own: the areas that read files list them from the server's
// format registry. The build still wants a console module.
export default definePlugin({ id: 'formats-image', views: {} });
