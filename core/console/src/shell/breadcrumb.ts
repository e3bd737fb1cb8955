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
 * declared with a parent in their manifests) the parent's chain first. dictionarySetting adds the
 * selected dictionary type's name, kept in session storage under `dictType`.
 */
export function breadcrumbs(input: {
  tree: readonly MenuEntry[];
  path: string;
  parent?: string;
  screen: string;
  dictTypeName?: string | null;
}): Crumb[] {
  const { tree, path, parent, screen, dictTypeName } = input;
  if (parent) {
    const chain = menuChain(tree, parent);
    const crumbs: Crumb[] = chain.map((e, i) => (i === chain.length - 1 ? { text: e.permissionName, href: e.path } : { text: e.permissionName }));
    if (path === '/dictionarySetting' && dictTypeName) crumbs.push({ text: dictTypeName });
    crumbs.push({ text: screen });
    return crumbs;
  }
  const chain = menuChain(tree, path);
  if (!chain.length) return [{ text: screen }];
  return chain.map((e) => ({ text: e.permissionName }));
}

/** The dictionary type picked on /dictionary (session key `dictType`): a JSON object with dictTypeName, or plain text. */
export function readDictTypeName(raw: string | null): string | null {
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (parsed && typeof parsed === 'object' && 'dictTypeName' in parsed) return String((parsed as { dictTypeName: unknown }).dictTypeName);
    return typeof parsed === 'string' ? parsed : raw;
  } catch {
    return raw;
  }
}
