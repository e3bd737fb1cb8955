import { createRequire } from 'node:module';
import { defineServerPlugin } from '@linguaport/sdk/server';
import { z } from '@linguaport/sdk/shared';

/**
 * The permission tree's calls are the kernel's (spec 01 section 7.2). This part only serves the
 * Blueprint icon names for the icon picker, so the console bundle does not carry the icon set:
 * the picker fetches the list when it opens and Blueprint's own loader draws each icon.
 */
export default defineServerPlugin({
  setup(ctx) {
    let names: string[] | null = null;
    ctx.route({
      method: 'GET',
      url: '/limit/iconNames',
      access: 'signed-in', // names only, nothing private
      summary: 'List the icon names for menus',
      response: { data: z.array(z.string()).describe("Blueprint's icon names, sorted") },
      handler() {
        if (!names) {
          const { IconNames } = createRequire(import.meta.url)('@blueprintjs/icons/lib/cjs/iconNames.js') as { IconNames: Record<string, string> };
          names = [...new Set(Object.values(IconNames))].sort();
        }
        return names;
      },
    });
  },
});
