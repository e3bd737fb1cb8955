import { definePlugin } from '@linguaport/sdk/console';

// The segment store has no screen yet: the CAT projects, tasks and editor views come with their routes.
// The build still wants a console module.
export default definePlugin({ id: 'cat', views: {} });
