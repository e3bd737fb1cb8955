import { Button, Callout, Checkbox, Dialog, DialogBody, DialogFooter, InputGroup, Tag } from '@blueprintjs/core';
import { useEffect, useMemo, useState } from 'react';
import { useApi, useNotify, useTranslation, type ApiErrorInfo } from '@linguaport/sdk/console';
import { filterTree, fromGranted, settle, stateOf, summarise, toggle, withAncestors, type MenuNode } from './tree.js';

const TYPE_KEYS: Record<number, string> = { 1: 'typeMenu', 2: 'typeButton', 3: 'typeApi', 4: 'typeLink' };

/** Grants a role permissions from the tree: tri-state checkboxes, search, saved through the kernel's role grant call. */
export function GrantDialog({ role, onClose }: { role: { id: number; name: string } | null; onClose: () => void }) {
  const { t } = useTranslation();
  const api = useApi();
  const notify = useNotify();
  const [tree, setTree] = useState<MenuNode[]>([]);
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [isSuper, setIsSuper] = useState(false);
  const [search, setSearch] = useState('');
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    if (!role) return;
    setSearch('');
    setFailed(null);
    Promise.all([
      api.get<MenuNode[]>('/permissionMenu/getAllPermissionMenu', { silent: true }),
      api.get<{ permissionIds: number[]; isSuper: boolean }>(`/role/permissions/${role.id}`, { silent: true }),
    ]).then(
      ([nodes, grants]) => { setTree(nodes); setIsSuper(grants.isSuper); setChosen(fromGranted(nodes, grants.permissionIds)); },
      (e: ApiErrorInfo) => setFailed(e.msg),
    );
  }, [api, role]);

  const shown = useMemo(() => filterTree(tree, search), [tree, search]);
  const summary = useMemo(() => summarise(tree, chosen), [tree, chosen]);

  async function save() {
    setBusy(true);
    try {
      await api.put(`/role/permissions/${role!.id}`, { permissionIds: withAncestors(tree, chosen) }, { silent: true });
      notify.success(t('granted'));
      onClose();
    } catch (e) {
      setFailed((e as ApiErrorInfo).msg);
    } finally {
      setBusy(false);
    }
  }

  const render = (node: MenuNode, depth: number) => {
    const state = stateOf(node, chosen);
    return (
      <div key={node.id}>
        <div style={{ paddingLeft: depth * 20, display: 'flex', alignItems: 'center', gap: 6 }}>
          <Checkbox
            checked={state === 'checked'}
            indeterminate={state === 'indeterminate'}
            disabled={isSuper}
            onChange={() => setChosen((c) => settle(tree, toggle(node, c)))}
            label={node.permissionName}
            data-testid={`grant-${node.key}`}
            style={{ margin: '2px 0' }}
          />
          <Tag minimal>{t(TYPE_KEYS[node.permissionType] ?? 'typeMenu')}</Tag>
          {node.admin && <Tag minimal intent="warning" title={t('adminHint')} data-testid={`admin-${node.key}`}>{t('adminTag')}</Tag>}
          <span className="bp6-text-muted" style={{ fontSize: 12 }}>{node.path ?? node.key}</span>
        </div>
        {node.children.map((c) => render(c, depth + 1))}
      </div>
    );
  };

  return (
    <Dialog isOpen={role !== null} title={t('grantTitle', { name: role?.name ?? '' })} onClose={onClose} canOutsideClickClose={false} style={{ width: 600 }}>
      <DialogBody>
        {isSuper && <Callout intent="primary" style={{ marginBottom: 8 }}>{t('superHoldsAll')}</Callout>}
        {failed && <Callout intent="danger" style={{ marginBottom: 8 }}>{failed}</Callout>}
        <InputGroup leftIcon="search" placeholder={t('searchTree')} value={search} onChange={(e) => setSearch(e.currentTarget.value)} style={{ marginBottom: 8 }} data-testid="grant-search" />
        <div style={{ maxHeight: 420, overflow: 'auto' }} data-testid="grant-tree">{shown.map((n) => render(n, 0))}</div>
        {!isSuper && (
          // What saving will grant, said before saving: administration permissions by name.
          <Callout intent={summary.admin.length ? 'warning' : 'none'} style={{ marginTop: 8 }} data-testid="grant-summary">
            <div data-testid="grant-summary-counts">{t('summaryCounts', { menus: t('menuCount', { count: summary.menus }), buttons: t('buttonCount', { count: summary.buttons }) })}</div>
            <div data-testid="grant-summary-admin">
              {summary.admin.length ? t('summaryAdmin', { names: summary.admin.join(t('listSeparator')) }) : t('summaryNoAdmin')}
            </div>
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('cancel')} onClick={onClose} />
            <Button intent="primary" text={t('save')} loading={busy} disabled={isSuper} onClick={() => void save()} data-testid="grant-save" />
          </>
        }
      />
    </Dialog>
  );
}
