import { describe, expect, it } from 'vitest';
import { filterTree, fromGranted, settle, stateOf, toggle, withAncestors, type MenuNode } from '../../console/tree.js';

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
});
