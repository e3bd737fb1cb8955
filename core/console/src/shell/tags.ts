/**
 * The tags view's list of visited pages (spec 01 sections 2.7 and 3: visited view with path,
 * title, query, fullPath, meta {affix, noCache}). Pure functions, so the rules are unit tested:
 * affix (pinned) views are never closed, and each path appears once.
 */
export interface VisitedView {
  path: string;
  title: string;
  fullPath: string;
  query: Record<string, string>;
  meta: { affix: boolean; noCache?: boolean };
}

export function addView(views: readonly VisitedView[], view: VisitedView): VisitedView[] {
  const at = views.findIndex((v) => v.path === view.path);
  if (at < 0) return [...views, view];
  // Same page again (another query, a new title after a language switch): update in place.
  const old = views[at]!;
  if (old.fullPath === view.fullPath && old.title === view.title && old.meta.affix === view.meta.affix) return views as VisitedView[];
  const next = [...views];
  next[at] = { ...view, meta: { ...view.meta, affix: old.meta.affix || view.meta.affix } };
  return next;
}

export function closeView(views: readonly VisitedView[], path: string): VisitedView[] {
  return views.filter((v) => v.path !== path || v.meta.affix);
}

export function closeOthers(views: readonly VisitedView[], keep: string): VisitedView[] {
  return views.filter((v) => v.path === keep || v.meta.affix);
}

export function closeAll(views: readonly VisitedView[]): VisitedView[] {
  return views.filter((v) => v.meta.affix);
}

/** Where to go after closing the active tab: the last view left, or the home path. */
export function afterClose(views: readonly VisitedView[], home: string): string {
  return views.at(-1)?.fullPath ?? home;
}
