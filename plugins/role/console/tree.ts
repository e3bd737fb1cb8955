/** A node of `GET /permissionMenu/getAllPermissionMenu`, as much as the grant tree reads. */
export interface MenuNode {
  id: number;
  key: string;
  permissionName: string;
  permissionType: number;
  path: string | null;
  /** An administration permission: never ticked with its menu, only on its own. */
  admin?: boolean;
  children: MenuNode[];
}

export type CheckState = 'checked' | 'unchecked' | 'indeterminate';

const ordinary = (node: MenuNode) => node.children.filter((c) => !c.admin);

/**
 * A node is checked when it and every ordinary descendant is chosen (administration permissions under
 * it do not count: they are never ticked with it), unchecked when nothing in it is, else indeterminate.
 */
export function stateOf(node: MenuNode, chosen: ReadonlySet<number>): CheckState {
  if (node.children.length === 0) return chosen.has(node.id) ? 'checked' : 'unchecked';
  const states = node.children.map((c) => stateOf(c, chosen));
  const ordinaryStates = node.children.map((c, i) => (c.admin ? null : states[i])).filter((s) => s !== null);
  if (ordinaryStates.every((s) => s === 'checked') && chosen.has(node.id)) return 'checked';
  if (states.every((s) => s === 'unchecked') && !chosen.has(node.id)) return 'unchecked';
  return 'indeterminate';
}

export function descendantIds(node: MenuNode): number[] {
  return [node.id, ...node.children.flatMap(descendantIds)];
}

/** The node and its descendants that a tick brings along: everything but administration permissions. */
export function ordinaryIds(node: MenuNode): number[] {
  return [node.id, ...ordinary(node).flatMap(ordinaryIds)];
}

/**
 * Ticking grants the node with its ordinary subtree, never the administration permissions under it
 * (those are ticked one by one); unticking takes the whole subtree away, administration included.
 */
export function toggle(node: MenuNode, chosen: ReadonlySet<number>): Set<number> {
  const next = new Set(chosen);
  const on = stateOf(node, chosen) !== 'checked';
  if (on) for (const id of ordinaryIds(node)) next.add(id);
  else for (const id of descendantIds(node)) next.delete(id);
  return next;
}

/**
 * Each parent follows its children, as a tree of checkboxes does: chosen when every child is
 * checked, not chosen otherwise. Applied after each toggle, so ticking every child one by one ticks
 * the parent, and unticking the last child unticks it (a group is not left granted with nothing in it).
 */
export function settle(roots: MenuNode[], chosen: ReadonlySet<number>): Set<number> {
  const next = new Set(chosen);
  const walk = (node: MenuNode): CheckState => {
    if (node.children.length === 0) return next.has(node.id) ? 'checked' : 'unchecked';
    const states = node.children.map(walk);
    const ordinaryStates = node.children.map((c, i) => (c.admin ? null : states[i])).filter((s) => s !== null);
    // A node whose children are all administration permissions keeps its own tick.
    if (ordinaryStates.length > 0) {
      if (ordinaryStates.every((s) => s === 'checked')) next.add(node.id);
      else next.delete(node.id);
    }
    return stateOf(node, next);
  };
  roots.forEach(walk);
  return next;
}

/**
 * What is saved: every chosen node plus the ancestors of chosen nodes, so a granted button's
 * menu, and the menu's group, show in the granted user's tree.
 */
export function withAncestors(roots: MenuNode[], chosen: ReadonlySet<number>): number[] {
  const out = new Set<number>();
  const walk = (node: MenuNode, path: number[]) => {
    if (chosen.has(node.id)) for (const id of [...path, node.id]) out.add(id);
    for (const c of node.children) walk(c, [...path, node.id]);
  };
  for (const r of roots) walk(r, []);
  return [...out].sort((a, b) => a - b);
}

/** The granted set as the tree shows it: a parent counts only through its children when it has any. */
export function fromGranted(roots: MenuNode[], granted: readonly number[]): Set<number> {
  const set = new Set(granted);
  const out = new Set<number>();
  const walk = (node: MenuNode): void => {
    node.children.forEach(walk);
    if (!set.has(node.id)) return;
    if (ordinary(node).every((c) => stateOf(c, out) === 'checked')) out.add(node.id);
  };
  roots.forEach(walk);
  return out;
}

/** Nodes whose name, key or path contains the text, with their ancestors (to keep the tree shape). */
export function filterTree(roots: MenuNode[], text: string): MenuNode[] {
  const q = text.trim().toLowerCase();
  if (!q) return roots;
  const hit = (n: MenuNode) => [n.permissionName, n.key, n.path ?? ''].some((s) => s.toLowerCase().includes(q));
  const walk = (n: MenuNode): MenuNode | null => {
    if (hit(n)) return n;
    const children = n.children.map(walk).filter((c): c is MenuNode => c !== null);
    return children.length ? { ...n, children } : null;
  };
  return roots.map(walk).filter((n): n is MenuNode => n !== null);
}

export interface GrantSummary {
  /** Screens (menus and links), directory groups not counted. */
  menus: number;
  /** Buttons and API permissions. */
  buttons: number;
  /** The administration permissions the role will hold, by name. */
  admin: string[];
}

/** What saving will grant (the chosen nodes with their ancestors), as the dialog sums it up before saving. */
export function summarise(roots: MenuNode[], chosen: ReadonlySet<number>): GrantSummary {
  const saved = new Set(withAncestors(roots, chosen));
  const out: GrantSummary = { menus: 0, buttons: 0, admin: [] };
  const walk = (node: MenuNode) => {
    if (saved.has(node.id)) {
      if (node.admin) out.admin.push(node.permissionName);
      if (node.permissionType === 2 || node.permissionType === 3) out.buttons += 1;
      else if (!node.key.startsWith('group:')) out.menus += 1;
    }
    node.children.forEach(walk);
  };
  roots.forEach(walk);
  return out;
}
