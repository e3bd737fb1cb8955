import { describe, expect, it } from 'vitest';
import { filterTree, fromGranted, settle, stateOf, summarise, toggle, withAncestors, type MenuNode } from '../../console/tree.js';

const node = (id: number, key: string, children: MenuNode[] = []): MenuNode => ({ id, key, permissionName: key, permissionType: children.length ? 1 : 2, path: `/${key}`, children });
// group(1) > users(2) > [add(3), edit(4)]; group(1) > roles(5)
const tree = [node(1, 'system', [node(2, 'users', [node(3, 'user-add'), node(4, 'user-edit')]), node(5, 'roles')])];

describe('grant tree', () => {
  it('checks a whole subtree at once and shows its ancestors as partly checked', () => {
    const chosen = toggle(tree[0]!.children[0]!, new Set());
    expect([...chosen].sort()).toEqual([2, 3, 4]);
    expect(stateOf(tree[0]!.children[0]!, chosen)).toBe('checked');
    expect(stateOf(tree[0]!, chosen)).toBe('indeterminate');
    expect([...toggle(tree[0]!.children[0]!, chosen)]).toEqual([]);
  });

  it('ticking every child one by one ticks the parent, and its parent in turn; unticking one unticks them', () => {
    const tick = (n: MenuNode, c: Set<number>) => settle(tree, toggle(n, c));
    const users = tree[0]!.children[0]!;
    let chosen = tick(users.children[0]!, new Set());
    expect(stateOf(users, chosen)).toBe('indeterminate');
    chosen = tick(users.children[1]!, chosen);
    expect(stateOf(users, chosen)).toBe('checked');
    expect(stateOf(tree[0]!, chosen)).toBe('indeterminate');
    chosen = tick(tree[0]!.children[1]!, chosen);
    expect(stateOf(tree[0]!, chosen)).toBe('checked');
    expect([...chosen].sort()).toEqual([1, 2, 3, 4, 5]);
    chosen = tick(users.children[0]!, chosen);
    expect(stateOf(users, chosen)).toBe('indeterminate');
    expect(stateOf(tree[0]!, chosen)).toBe('indeterminate');
    chosen = tick(users.children[1]!, chosen);
    expect(stateOf(users, chosen)).toBe('unchecked');
    expect([...chosen]).toEqual([5]);
    expect(withAncestors(tree, chosen)).toEqual([1, 5]);
  });

  it('saves every chosen node with its ancestors so granted menus show', () => {
    expect(withAncestors(tree, new Set([3]))).toEqual([1, 2, 3]);
    expect(withAncestors(tree, new Set([5]))).toEqual([1, 5]);
  });

  it('reads saved grants back: a parent counts as checked only when all its children are', () => {
    expect(stateOf(tree[0]!.children[0]!, fromGranted(tree, [1, 2, 3]))).toBe('indeterminate');
    expect(stateOf(tree[0]!, fromGranted(tree, [1, 2, 3, 4, 5]))).toBe('checked');
    expect([...fromGranted(tree, [1, 2])]).toEqual([]);
  });

  it('filters by name, key or path and keeps the ancestors of each match', () => {
    const found = filterTree(tree, 'EDIT');
    expect(found[0]!.key).toBe('system');
    expect(found[0]!.children.map((c) => c.key)).toEqual(['users']);
    expect(found[0]!.children[0]!.children.map((c) => c.key)).toEqual(['user-edit']);
    expect(filterTree(tree, 'nothing-like-this')).toEqual([]);
  });

  describe('administration permissions', () => {
    // group(10) > documents(11) > [use(12), manage every user's(13, admin)]; group(10) > files(14) > [quota(15, admin)]
    const admin = (n: MenuNode): MenuNode => ({ ...n, admin: true });
    const docs = node(11, 'documents', [node(12, 'doc-use'), admin(node(13, 'doc-manage'))]);
    const files = node(14, 'files', [admin(node(15, 'quota'))]);
    const group: MenuNode = { ...node(10, 'group:translation', [docs, files]), permissionType: 1 };
    const roots = [group];
    const tick = (n: MenuNode, c: Set<number>) => settle(roots, toggle(n, c));

    it('ticking a menu (or its group) grants it with its ordinary buttons, never the administration ones', () => {
      const chosen = tick(docs, new Set());
      expect([...chosen].sort((a, b) => a - b)).toEqual([11, 12]);
      expect(stateOf(docs, chosen)).toBe('checked');
      const all = tick(group, new Set());
      expect([...all].sort((a, b) => a - b)).toEqual([10, 11, 12, 14]);
      expect(stateOf(group, all)).toBe('checked');
      expect(all.has(13) || all.has(15)).toBe(false);
    });

    it('an administration permission is ticked on its own and unticking its menu takes it away', () => {
      let chosen = tick(docs, new Set());
      chosen = tick(docs.children[1]!, chosen);
      expect(chosen.has(13)).toBe(true);
      expect(stateOf(docs, chosen)).toBe('checked');
      chosen = tick(docs, chosen);
      expect([...chosen]).toEqual([]);
      // Alone, under an unticked menu: the menu shows partly chosen and is saved with it.
      chosen = tick(files.children[0]!, new Set());
      expect(stateOf(files, chosen)).toBe('indeterminate');
      expect(withAncestors(roots, chosen)).toEqual([10, 14, 15]);
    });

    it('reads saved grants back without asking for the administration buttons', () => {
      expect(stateOf(docs, fromGranted(roots, [10, 11, 12]))).toBe('checked');
      expect(stateOf(files, fromGranted(roots, [10, 14]))).toBe('checked');
    });

    it('sums up what the role will hold, naming the administration permissions', () => {
      expect(summarise(roots, tick(group, new Set()))).toEqual({ menus: 2, buttons: 1, admin: [] });
      expect(summarise(roots, tick(files.children[0]!, tick(docs, new Set())))).toEqual({ menus: 2, buttons: 2, admin: ['quota'] });
    });
  });
});
