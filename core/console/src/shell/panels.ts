import { useEffect, type RefObject } from 'react';

/** Close a floating panel on a pointer press outside every given element (spec 01 2.7). */
export function useOutsideClose(open: boolean, refs: RefObject<HTMLElement | null>[], close: () => void): void {
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      const target = e.target as Node;
      if (refs.some((r) => r.current?.contains(target))) return;
      // Portalled overlays (tooltips, selects, dialogs opened from the panel) are not "outside".
      if ((target as Element).closest?.('.bp6-portal')) return;
      close();
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);
}
