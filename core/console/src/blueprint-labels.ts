import type { i18n as I18n } from 'i18next';

/**
 * Blueprint writes a few English labels of its own into the page (a dialog's close button, a
 * spinner, the breadcrumbs' list, a tag's remove button, a numeric input's arrows), with no prop to
 * change some of them. The console speaks one language at a time, so the host relabels them, in
 * every plugin's view, whenever they appear and when the language changes.
 */
const LABELS: Record<string, string> = {
  Close: 'blueprint.close',
  loading: 'blueprint.loading',
  Breadcrumb: 'blueprint.breadcrumb',
  'collapsed breadcrumbs': 'blueprint.collapsedBreadcrumbs',
  'Remove tag': 'blueprint.removeTag',
  increment: 'blueprint.increment',
  decrement: 'blueprint.decrement',
  Back: 'blueprint.back',
};
const ATTRS = ['aria-label'];

export function relabelBlueprint(i18n: I18n, root: ParentNode = document): void {
  // Either language's wording maps back to its key, so a switch relabels what the last one wrote.
  const byText = new Map<string, string>();
  for (const [english, key] of Object.entries(LABELS)) {
    byText.set(english, key);
    for (const lng of ['zh-CN', 'en-US']) byText.set(i18n.t(key, { lng }), key);
  }
  const fix = (el: Element) => {
    for (const attr of ATTRS) {
      const value = el.getAttribute(attr);
      const key = value ? byText.get(value) : undefined;
      if (!key) continue;
      const wanted = i18n.t(key);
      if (wanted !== value) el.setAttribute(attr, wanted);
    }
  };
  if (root instanceof Element) fix(root);
  for (const el of Array.from(root.querySelectorAll(ATTRS.map((a) => `[${a}]`).join(',')))) fix(el);
}

/** Relabels now, on every change of the page, and on every change of language. */
export function installBlueprintLabels(i18n: I18n): void {
  if (typeof document === 'undefined' || typeof MutationObserver === 'undefined') return;
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'attributes') relabelBlueprint(i18n, r.target as Element);
      else for (const n of Array.from(r.addedNodes)) if (n instanceof Element) relabelBlueprint(i18n, n);
    }
  });
  observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ATTRS });
  i18n.on('languageChanged', () => relabelBlueprint(i18n));
  relabelBlueprint(i18n);
}
