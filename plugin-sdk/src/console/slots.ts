import { createElement, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { usePlatform } from './index.js';

/**
 * Console slots: named places in one plugin's views that other plugins fill (home tiles, the text
 * translation side panel, ...). A plugin declares what it fills in its manifest (`slots`) and
 * exports the views; the kernel renders each contribution the user may see, lazily, in its own
 * error boundary and Suspense, with the contributing plugin's own services.
 */

export interface SlotProps<P extends object = Record<string, unknown>> {
  /** The slot's name, `area.place` (`home.tiles`). */
  name: string;
  /** Passed to every contribution as `props`. */
  props?: P;
  /** Shown when no contribution is visible to this user (nothing by default). */
  empty?: ReactNode;
}

/** What a contribution's view receives. */
export interface SlotViewProps<P = Record<string, unknown>> {
  slot: string;
  props: P;
}

export interface SlotContribution {
  plugin: string;
  view: string;
  order: number;
}

export interface SlotService {
  /** The contributions to `name` this user may see, in order. */
  contributions(name: string): readonly SlotContribution[];
  /** The kernel's renderer behind `<Slot>`. */
  Outlet: ComponentType<SlotProps<any>>;
}

/** Renders every contribution to the slot that the current user may see. */
export function Slot<P extends object = Record<string, unknown>>(props: SlotProps<P>) {
  const { slots } = usePlatform();
  return createElement(slots.Outlet, props);
}

/** The visible contributions to a slot, kept current across permission and registry changes. */
export function useSlot(name: string): readonly SlotContribution[] {
  const { slots, permissions } = usePlatform();
  const [list, setList] = useState(() => slots.contributions(name));
  useEffect(() => {
    setList(slots.contributions(name));
    const sub = permissions.changes().subscribe(() => setList(slots.contributions(name)));
    return () => sub.unsubscribe();
  }, [slots, permissions, name]);
  return list;
}
