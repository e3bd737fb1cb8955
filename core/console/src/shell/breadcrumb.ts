import type { MenuEntry } from '../auth/types.js';
import { menuChain } from '../auth/permissions.js';

export interface Crumb {
  text: string;
  /** A link for parent entries; the current page has none. */
  href?: string;
}

/**
 * Breadcrumbs of spec 01 2.7: the menu chain of the page, and for a detail page (dictionarySetting,
 * the cat manager sub-pages, cat implementation, data correction pages, TM and term history, all
 * declared with a parent in their manifests) the parent's chain first, then the crumb its manifest
 * route takes from the parent page's choice (dictionarySetting: the selected dictionary type).
 */
export function breadcrumbs(input: {
  tree: readonly MenuEntry[];
  path: string;
  parent?: string;
  screen: string;
  /** The route's crumb from its parent page's choice (`pageBehaviour`). */
  crumb?: string | null;
}): Crumb[] {
  const { tree, parent, path, screen, crumb } = input;
  if (parent) {
    const chain = menuChain(tree, parent);
    const crumbs: Crumb[] = chain.map((e, i) => (i === chain.length - 1 ? { text: e.permissionName, href: e.path } : { text: e.permissionName }));
    if (crumb) crumbs.push({ text: crumb });
    crumbs.push({ text: screen });
    return crumbs;
  }
  const chain = menuChain(tree, path);
  if (!chain.length) return [{ text: screen }];
  return chain.map((e) => ({ text: e.permissionName }));
}
