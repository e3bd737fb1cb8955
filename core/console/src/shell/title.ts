import { useEffect } from 'react';
import { SessionKeys, sessionStore } from '../auth/storage.js';

/** Page title = translated screen title + ' - ' + SITE_TITLE (spec 01 section 1). */
export function pageTitle(screen: string, siteTitle: string): string {
  if (!siteTitle) return screen;
  return screen ? `${screen} - ${siteTitle}` : siteTitle;
}

export function useDocumentTitle(screen: string, siteTitle: string): void {
  useEffect(() => {
    document.title = pageTitle(screen, siteTitle);
    sessionStore()?.setItem(SessionKeys.title, screen);
  }, [screen, siteTitle]);
}
