import { Button, Menu, MenuItem, ContextMenu } from '@blueprintjs/core';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { VisitedView } from './tags.js';

interface Props {
  views: VisitedView[];
  activePath: string;
  onClose(path: string): void;
  onRefresh(view: VisitedView): void;
  onCloseOthers(view: VisitedView): void;
  onCloseAll(): void;
}

/** Margin kept between a revealed tab and the strip's edge, so the neighbour's edge shows too. */
const REVEAL_MARGIN = 24;

/**
 * The scroll position that brings a tab fully into a strip's view: unchanged when it already is,
 * otherwise the least scroll that shows it (with a margin), clamped to the strip's range.
 * Offsets are the tab's left edge and width in the strip's scroll coordinates.
 */
export function revealScroll(scrollLeft: number, clientWidth: number, scrollWidth: number, tabLeft: number, tabWidth: number): number {
  const max = Math.max(0, scrollWidth - clientWidth);
  let next = scrollLeft;
  if (tabLeft < scrollLeft) next = tabLeft - REVEAL_MARGIN;
  else if (tabLeft + tabWidth > scrollLeft + clientWidth) next = tabLeft + tabWidth - clientWidth + REVEAL_MARGIN;
  return Math.min(max, Math.max(0, next));
}

interface Overflow { left: boolean; right: boolean }

/**
 * The tab bar of visited pages: right-click for refresh, close others, close all; affix tabs have no close.
 * The active tab is scrolled into view whenever it changes; when the tabs do not fit, arrows at either end
 * scroll the strip (each disabled at its end).
 */
export function TagsView({ views, activePath, onClose, onRefresh, onCloseOthers, onCloseAll }: Props) {
  const { t } = useTranslation('core');
  const strip = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState<Overflow>({ left: false, right: false });

  const measure = useCallback(() => {
    const el = strip.current;
    if (!el) return;
    const left = el.scrollLeft > 0;
    const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setOverflow((o) => (o.left === left && o.right === right ? o : { left, right }));
  }, []);

  // Bring the active tab into view when it (or the set of tabs) changes.
  useLayoutEffect(() => {
    const el = strip.current;
    if (!el) return;
    const tab = Array.from(el.querySelectorAll<HTMLElement>('[data-testid="tag"]')).find((n) => n.dataset.path === activePath);
    if (tab) {
      const box = el.getBoundingClientRect();
      const at = tab.getBoundingClientRect();
      const next = revealScroll(el.scrollLeft, el.clientWidth, el.scrollWidth, at.left - box.left + el.scrollLeft, at.width);
      if (next !== el.scrollLeft) el.scrollLeft = next;
    }
    measure();
  }, [activePath, views, measure]);

  useEffect(() => {
    const el = strip.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [measure]);

  const scrollBy = (dir: -1 | 1) => {
    const el = strip.current;
    if (!el) return;
    const max = Math.max(0, el.scrollWidth - el.clientWidth);
    el.scrollLeft = Math.min(max, Math.max(0, el.scrollLeft + dir * Math.max(80, el.clientWidth * 0.8)));
    measure();
  };

  const scrollable = overflow.left || overflow.right;
  return (
    <div className={`lp-tags${scrollable ? ' lp-tags-overflow' : ''}`} data-testid="tags-view">
      {scrollable ? (
        <Button size="small" variant="minimal" icon="chevron-left" className="lp-tags-arrow" aria-label={t('tags.scrollLeft')} title={t('tags.scrollLeft')} disabled={!overflow.left} onClick={() => scrollBy(-1)} data-testid="tags-scroll-left" />
      ) : null}
      <div className="lp-tags-strip" ref={strip} onScroll={measure} data-testid="tags-strip">
        {views.map((v) => (
          <ContextMenu
            key={v.path}
            content={
              <Menu data-testid="tags-menu">
                <MenuItem icon="refresh" text={t('tags.refresh')} onClick={() => onRefresh(v)} data-testid="tags-refresh" />
                <MenuItem icon="cross" text={t('tags.closeOthers')} onClick={() => onCloseOthers(v)} data-testid="tags-close-others" />
                <MenuItem icon="disable" text={t('tags.closeAll')} onClick={onCloseAll} data-testid="tags-close-all" />
              </Menu>
            }
          >
            <span className={`lp-tag${v.path === activePath ? ' lp-tag-active' : ''}`} data-testid="tag" data-path={v.path} data-affix={v.meta.affix || undefined}>
              <Link to={v.fullPath}>{v.title}</Link>
              {v.meta.affix ? null : (
                <Button size="small" variant="minimal" icon="small-cross" aria-label={t('tags.close')} onClick={() => onClose(v.path)} data-testid="tag-close" />
              )}
            </span>
          </ContextMenu>
        ))}
      </div>
      {scrollable ? (
        <Button size="small" variant="minimal" icon="chevron-right" className="lp-tags-arrow" aria-label={t('tags.scrollRight')} title={t('tags.scrollRight')} disabled={!overflow.right} onClick={() => scrollBy(1)} data-testid="tags-scroll-right" />
      ) : null}
    </div>
  );
}
