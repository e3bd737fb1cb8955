import type { RegistryRoute } from '@linguaport/sdk/shared';

/**
 * How the shell lays a page out, read from its manifest route only (spec 01 2.7): no minimum width
 * when the route is `fluid` (and on the kernel's own /custom page), and the crumb a detail page adds
 * from its parent page's choice, kept in session storage under the key the route names.
 */
export function pageBehaviour(route: RegistryRoute | undefined, path: string, session: Pick<Storage, 'getItem'> | null): { fluid: boolean; crumb: string | null } {
  const fluid = !!route?.fluid || path === '/custom';
  const crumb = route?.crumb ? readCrumb(session?.getItem(route.crumb.session) ?? null, route.crumb.field) : null;
  return { fluid, crumb };
}

/** A stored choice: a JSON object's `field`, a JSON string, or the raw text. */
export function readCrumb(raw: string | null, field?: string): string | null {
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (field && parsed && typeof parsed === 'object' && field in parsed) return String((parsed as Record<string, unknown>)[field]);
    return typeof parsed === 'string' ? parsed : raw;
  } catch {
    return raw;
  }
}
