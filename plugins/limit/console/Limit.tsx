import { Button, ButtonGroup, Callout, HTMLTable, InputGroup, Tag } from '@blueprintjs/core';
import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  PageHeader,
  ConfirmDialog,
  FormDialog,
  useApi,
  useCrudScreen,
  usePermission,
  useTranslation,
  rowCalls,
  type ApiErrorInfo,
  type FormField,
  type FormValues,
} from '@linguaport/sdk/console';
import { ValidationKeys, positiveIntegerSchema, z } from '@linguaport/sdk/shared';
import { IconPicker } from './IconPicker.js';

/** A node of the kernel's `GET /permissionMenu/getAllPermissionMenu`. */
interface MenuNode {
  id: number;
  parentId: number | null;
  key: string;
  permissionName: string;
  nameZh: string;
  nameEn: string;
  permissionType: number;
  path: string | null;
  icon: string | null;
  sort: number;
  showInMenu: boolean;
  showInShortcut: boolean;
  showToUsers: boolean;
  shortcutImage: string | null;
  pluginId: string | null;
  owned: boolean;
  children: MenuNode[];
}

const TYPES = [1, 2, 3, 4] as const;
const TYPE_KEYS: Record<number, string> = { 1: 'typeMenu', 2: 'typeButton', 3: 'typeApi', 4: 'typeLink' };
const required = z.string({ error: ValidationKeys.required }).trim().min(1, ValidationKeys.required);

/** Spec 02 section 5 (Permission): name, type, identification and menu address required; sort a positive integer. */
const nodeSchema = z
  .object({
    nameZh: required,
    nameEn: required,
    permissionType: z.coerce.number({ error: ValidationKeys.required }),
    key: required,
    path: required,
    sort: positiveIntegerSchema,
  })
  .refine((v) => v.permissionType === 4 ? /^(https?:\/\/|\/)\S*$/.test(v.path) : /^\/\S*$/.test(v.path), { message: ValidationKeys.slashPath, path: ['path'] });

function flatten(nodes: MenuNode[], depth = 0, out: Array<{ node: MenuNode; depth: number }> = []) {
  for (const n of nodes) {
    out.push({ node: n, depth });
    flatten(n.children, depth + 1, out);
  }
  return out;
}

export function Limit() {
  const { t } = useTranslation();
  const api = useApi();
  const perms = usePermission();
  const [tree, setTree] = useState<MenuNode[]>([]);
  const [failed, setFailed] = useState<string | null>(null);
  const [search, setSearch] = useState('');

  const reload = useCallback(() => {
    api.get<MenuNode[]>('/permissionMenu/getAllPermissionMenu', { silent: true }).then(
      (nodes) => { setTree(nodes); setFailed(null); },
      (e: ApiErrorInfo) => setFailed(e.msg),
    );
  }, [api]);
  useEffect(reload, [reload]);
  const crud = useCrudScreen<{ node: MenuNode | null; parentId: number | null }, MenuNode>({ onReload: reload });
  const { editing, deleting } = crud;

  const rows = useMemo(() => {
    const all = flatten(tree);
    const q = search.trim().toLowerCase();
    return q ? all.filter(({ node }) => [node.permissionName, node.key, node.path ?? ''].some((s) => s.toLowerCase().includes(q))) : all;
  }, [tree, search]);
  const parents = useMemo(() => flatten(tree).filter(({ node }) => node.permissionType === 1), [tree]);

  const node = editing?.node ?? null;
  const fields: FormField[] = [
    { name: 'parentId', label: t('parent'), type: 'select', placeholder: t('topLevel'), options: parents.filter(({ node: p }) => p.id !== node?.id).map(({ node: p, depth }) => ({ value: p.id, label: `${'— '.repeat(depth)}${p.permissionName}` })) },
    { name: 'nameZh', label: t('nameZh'), required: true },
    { name: 'nameEn', label: t('nameEn'), required: true },
    { name: 'permissionType', label: t('type'), type: 'select', required: true, disabled: node?.owned, options: TYPES.map((v) => ({ value: v, label: t(TYPE_KEYS[v]!) })) },
    { name: 'key', label: t('key'), required: true, disabled: node?.owned, helperText: t('keyHint') },
    { name: 'path', label: t('path'), required: true, disabled: node?.owned, helperText: t('pathHint') },
    { name: 'icon', label: t('icon'), type: 'custom', render: (value, set) => <IconPicker value={String(value ?? '')} onChange={set} /> },
    { name: 'sort', label: t('sort'), type: 'number', required: true },
    { name: 'shortcutImage', label: t('shortcutImage') },
    { name: 'showInMenu', label: t('showInMenu'), type: 'checkbox' },
    { name: 'showInShortcut', label: t('showInShortcut'), type: 'checkbox' },
    { name: 'showToUsers', label: t('showToUsers'), type: 'checkbox' },
  ];
  const initial: FormValues = node
    ? { ...node, parentId: node.parentId ?? undefined, icon: node.icon ?? '', shortcutImage: node.shortcutImage ?? '' }
    : { parentId: editing?.parentId ?? undefined, permissionType: 1, sort: 100, showInMenu: true, showInShortcut: false, showToUsers: true, icon: '' };

  const save = (values: FormValues) => crud.save(async ({ node: target }) => {
    const body = { ...values, parentId: values.parentId ?? null, sort: Number(values.sort) };
    await rowCalls(api, '/permissionMenu', { silent: true }).save(target?.id ?? null, body);
    return t('saved');
  });

  const remove = () => crud.remove(async (target) => {
    await api.delete('/permissionMenu/deleteBatch', { params: { ids: String(target.id) }, silent: true });
    return t('deleted');
  });

  return (
    <div data-testid="limit-view" style={{ padding: 16 }}>
      <PageHeader
        title={t('title')}
        actions={perms.hasButton('permission:add') && <Button intent="primary" icon="plus" text={t('add')} onClick={() => crud.startEdit({ node: null, parentId: null })} data-testid="limit-add" />}
      />
      <div style={{ display: 'flex', gap: 8, marginBottom: 12 }}>
        <InputGroup leftIcon="search" placeholder={t('search')} value={search} onChange={(e) => setSearch(e.currentTarget.value)} style={{ width: 280 }} />
      </div>
      {failed && <Callout intent="danger">{failed}</Callout>}
      <HTMLTable compact striped interactive style={{ width: '100%' }}>
        <thead>
          <tr><th>{t('name')}</th><th>{t('type')}</th><th>{t('key')}</th><th>{t('path')}</th><th>{t('sort')}</th><th>{t('flags')}</th><th>{t('actions')}</th></tr>
        </thead>
        <tbody>
          {rows.map(({ node: n, depth }) => (
            <tr key={n.id} data-testid={`limit-row-${n.key}`}>
              <td style={{ paddingLeft: 8 + depth * 20 }}>{n.permissionName} {n.pluginId && <Tag minimal translate="no">{n.pluginId}</Tag>}</td>
              <td>{t(TYPE_KEYS[n.permissionType] ?? 'typeMenu')}</td>
              <td><code>{n.key}</code></td>
              <td>{n.path}</td>
              <td>{n.sort}</td>
              <td>
                {n.showInMenu && <Tag minimal>{t('showInMenu')}</Tag>} {n.showInShortcut && <Tag minimal>{t('showInShortcut')}</Tag>} {!n.showToUsers && <Tag minimal intent="warning">{t('hidden')}</Tag>}
              </td>
              <td>
                <ButtonGroup variant="minimal">
                  {perms.hasButton('permission:add') && n.permissionType === 1 && <Button size="small" text={t('addChild')} onClick={() => crud.startEdit({ node: null, parentId: n.id })} />}
                  {perms.hasButton('permission:edit') && <Button size="small" text={t('edit')} onClick={() => crud.startEdit({ node: n, parentId: n.parentId })} />}
                  {perms.hasButton('permission:delete') && !n.owned && <Button size="small" intent="danger" text={t('delete')} onClick={() => crud.askDelete(n)} />}
                </ButtonGroup>
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <FormDialog isOpen={editing !== null} title={node ? t('edit') : t('add')} fields={fields} schema={nodeSchema} initialValues={initial} onSubmit={save} onClose={crud.stopEditing} />
      <ConfirmDialog
        isOpen={deleting !== null}
        title={t('deleteTitle')}
        message={t('deleteMessage')}
        count={1}
        items={deleting ? [`${deleting.permissionName} (${deleting.key})`] : []}
        onConfirm={remove}
        onClose={crud.stopDeleting}
      />
    </div>
  );
}
