import { useCallback, useEffect, useState } from 'react';
import { Button, Callout, Card, H4, HTMLSelect, HTMLTable, Icon, Intent, Tag, type IconName } from '@blueprintjs/core';
import { EngineDialogs, engineFields, type EditableEngine } from './engine-dialogs.js';
import { LanguagePacks } from './language-packs.js';
import { ConfirmDialog, definePlugin, FormDialog, PageHeader, useApi, useNotify, usePermission, useTranslation, type ApiErrorInfo, type FormField, type FormValues } from '@linguaport/sdk/console';
import { formatDate } from '@linguaport/sdk/shared';

/** An engine row of the list: the same fields the dialogs edit. */
type Engine = EditableEngine;
interface EngineNode {
  id: number;
  kind: string;
  containerName: string;
  ip: string | null;
  baseUrl: string | null;
  running: boolean;
  health: 'unknown' | 'healthy' | 'unhealthy' | 'stopped';
  lastError: string | null;
  /** Why the node cannot run: no adapter of its kind is registered (its plugin is off). */
  unavailable?: string | null;
  pairs: { source: string; target: string }[];
}

type Localized = { 'zh-CN': string; 'en-US': string };

/** A registered adapter kind (`GET translServiceNode/kinds`): the node form asks for its config fields. */
interface AdapterKind {
  kind: string;
  name: Localized;
  /** Its capability's id: kinds of a capability routed by pairs go under an engine, the others in their capability's card. */
  capability: string;
  local: boolean;
  schema: { properties?: Record<string, { type?: string | string[]; items?: { type?: string } }>; required?: string[] };
  secrets: string[];
  fields: Record<string, { label: Localized; help?: Localized; placeholder?: string }>;
}

/** A capability a plugin declared (`GET translServiceNode/capabilities`): its card's labels and icon come from it. */
interface Capability {
  id: string;
  name: Localized;
  routing: 'pairs' | 'language';
  console: { title: Localized; help?: Localized; addNode?: Localized; noNodes?: Localized; icon?: string };
}

const CONFIG = 'config.';

/** Form fields for an adapter's config, from its JSON Schema: secrets as passwords, lists comma-separated. */
function configFields(kind: AdapterKind | undefined, zh: boolean, listHelp: string): FormField[] {
  if (!kind) return [];
  const pick = (l?: Localized) => (l ? (zh ? l['zh-CN'] : l['en-US']) : undefined);
  return Object.entries(kind.schema.properties ?? {}).map(([name, prop]) => {
    const meta = kind.fields[name];
    const type = Array.isArray(prop.type) ? prop.type[0] : prop.type;
    return {
      name: CONFIG + name,
      label: pick(meta?.label) ?? name,
      placeholder: meta?.placeholder,
      required: (kind.schema.required ?? []).includes(name) && type !== 'array',
      helperText: pick(meta?.help) ?? (type === 'array' ? listHelp : undefined),
      type: kind.secrets.includes(name) ? 'password' : type === 'number' || type === 'integer' ? 'number' : type === 'boolean' ? 'checkbox' : 'text',
    };
  });
}

/** The config object the server validates, from the form's values (lists split, numbers read). */
function configOf(kind: AdapterKind | undefined, values: FormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(kind?.schema.properties ?? {})) {
    const v = values[CONFIG + name];
    if (v === undefined || v === null || v === '') continue;
    const type = Array.isArray(prop.type) ? prop.type[0] : prop.type;
    out[name] = type === 'array' ? String(v).split(',').map((x) => x.trim()).filter(Boolean) : type === 'number' || type === 'integer' ? Number(v) : v;
  }
  return out;
}

const HEALTH_INTENT: Record<EngineNode['health'], Intent> = { healthy: Intent.SUCCESS, unhealthy: Intent.DANGER, stopped: Intent.NONE, unknown: Intent.WARNING };

function EngineCard({ engine, kinds, onChanged }: { engine: Engine; kinds: AdapterKind[]; onChanged(): void }) {
  const { t, i18n } = useTranslation();
  const zh = i18n.language.startsWith('zh');
  const [kind, setKind] = useState<string>('');
  const api = useApi();
  const notify = useNotify();
  const permissions = usePermission();
  const [nodes, setNodes] = useState<EngineNode[]>([]);
  const [busy, setBusy] = useState<number | null>(null);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<EngineNode | null>(null);
  const [dialog, setDialog] = useState<'edit' | 'model' | 'language' | 'abbreviations' | null>(null);

  const load = useCallback(() => {
    api.get<{ nodes: EngineNode[] }>('/translServiceInfo/getServiceInfo', { params: { id: engine.id }, silent: true }).then((r) => setNodes(r.nodes), () => {});
  }, [api, engine.id]);
  useEffect(load, [load]);

  const control = async (node: EngineNode, action: 'start' | 'stop') => {
    setBusy(node.id);
    try {
      await api.get(`/translServiceNode/${action}TranslationService`, { params: { id: node.id }, silent: true });
      notify.success(t(action === 'start' ? 'started' : 'stopped', { name: node.containerName }));
    } catch (err) {
      notify.error((err as ApiErrorInfo).msg);
    } finally {
      setBusy(null);
      load();
    }
  };

  const uploadLicence = async (file: File | undefined) => {
    if (!file) return;
    const form = new FormData();
    form.append('engineId', String(engine.id));
    form.append('file', file);
    try {
      await api.post('/translServiceNode/uploadAuthorizationFile', form, { silent: true });
      notify.success(t('licenceAccepted'));
      onChanged();
    } catch (err) {
      // The server says why (not signed by a trusted key, expired, wrong engine, node limit).
      notify.error(t('licenceRefused', { msg: (err as ApiErrorInfo).msg }));
    }
  };

  // The kinds are whatever adapters the enabled plugins registered; the chosen one's fields follow it.
  const chosen = kinds.find((k) => k.kind === kind) ?? kinds.find((k) => !k.local) ?? kinds[0];
  const nodeFields: FormField[] = [
    {
      name: 'kind',
      label: t('kind'),
      type: 'custom',
      required: true,
      render: (value, setValue) => (
        <HTMLSelect
          data-testid="node-kind"
          value={String(value ?? chosen?.kind ?? '')}
          onChange={(e) => {
            setValue(e.currentTarget.value);
            setKind(e.currentTarget.value);
          }}
          options={kinds.map((k) => ({ value: k.kind, label: zh ? k.name['zh-CN'] : k.name['en-US'] }))}
        />
      ),
    },
    { name: 'containerName', label: t('containerName'), required: true },
    { name: 'authenticationFile', label: t('authenticationFile'), required: true },
    ...configFields(chosen, zh, t('listHelp')),
    { name: 'ip', label: t('ip') },
    { name: 'sshPort', label: t('sshPort'), type: 'number' },
    { name: 'userName', label: t('userName') },
    { name: 'password', label: t('password'), type: 'password' },
    { name: 'gpuCard', label: t('gpuCard') },
    { name: 'resourcePath', label: t('resourcePath') },
    { name: 'configPath', label: t('configPath') },
    { name: 'libraryAddress', label: t('libraryAddress') },
    { name: 'incrementalSupport', label: t('incrementalSupport'), type: 'checkbox' },
    { name: 'createService', label: t('createService'), type: 'checkbox' },
  ];
  const addNode = async (values: FormValues) => {
    // Empty optional fields are left out rather than sent as empty strings.
    const body = Object.fromEntries(Object.entries(values).filter(([k, v]) => !k.startsWith(CONFIG) && v !== '' && v !== undefined && v !== null));
    if (body.sshPort !== undefined) body.sshPort = Number(body.sshPort);
    const nodeKind = kinds.find((k) => k.kind === (body.kind ?? chosen?.kind));
    await api.post('/translServiceNode/add', { ...body, kind: nodeKind?.kind, config: configOf(nodeKind, values), engineId: engine.id }, { silent: true });
    notify.success(t('nodeAdded'));
    setAdding(false);
    onChanged();
    load();
  };

  const expired = engine.expiresAt && new Date(engine.expiresAt).getTime() < Date.now();
  return (
    <Card data-testid={`engine-${engine.id}`}>
      <H4>
        {engine.name} <Tag minimal>{engine.imageName}</Tag> {!engine.enabled && <Tag intent={Intent.WARNING}>{t('disabled')}</Tag>}{' '}
        {expired && <Tag intent={Intent.DANGER}>{t('expired')}</Tag>}
      </H4>
      <div style={{ color: '#5f6b7c', marginBottom: 8 }}>
        {t('direction')}: {engine.sourceLanguage ?? t('any')} → {engine.targetLanguage ?? t('any')} · {t('domain')}: {engine.domain ?? '—'} · {t('containers')}: {engine.containerCount} · {t('expires')}:{' '}
        {engine.expiresAt ? formatDate(engine.expiresAt, 'YYYY-MM-DD') : t('never')}
      </div>
      {permissions.hasButton('service:licence') && (
        <label className="bp6-button bp6-small" style={{ marginBottom: 8 }}>
          {t('uploadLicence')}
          <input type="file" hidden data-testid="upload-licence" accept=".lic,.json,application/json" onChange={(e) => void uploadLicence(e.currentTarget.files?.[0])} />
        </label>
      )}
      {permissions.hasButton('service:edit') && <Button small icon="add" data-testid="add-node" style={{ marginLeft: 8 }} onClick={() => setAdding(true)} text={t('addNode')} />}
      {permissions.hasButton('service:edit') && (
        <>
          <Button small icon="edit" data-testid="edit-engine" style={{ marginLeft: 8 }} onClick={() => setDialog('edit')} text={t('editEngine')} />
          <Button small icon="predictive-analysis" data-testid="select-model" style={{ marginLeft: 8 }} onClick={() => setDialog('model')} text={t('selectModel')} />
          <Button small icon="translate" data-testid="select-language" style={{ marginLeft: 8 }} onClick={() => setDialog('language')} text={t('selectLanguage')} />
          <Button small icon="label" data-testid="edit-abbreviations" style={{ marginLeft: 8 }} onClick={() => setDialog('abbreviations')} text={t('abbreviations')} />
        </>
      )}
      <EngineDialogs engine={engine} nodes={nodes} open={dialog} onClose={() => setDialog(null)} onChanged={() => { setDialog(null); onChanged(); load(); }} />
      <FormDialog isOpen={adding} title={t('addNode')} fields={nodeFields} initialValues={{ kind: chosen?.kind ?? '' }} onSubmit={addNode} onClose={() => setAdding(false)} />
      <ConfirmDialog
        isOpen={!!removing}
        title={t('deleteNode')}
        message={t('deleteNodeMessage', { name: removing?.containerName ?? '' })}
        count={1}
        items={removing ? [removing.containerName] : []}
        intent="danger"
        onConfirm={async () => {
          await api.delete('/translServiceNode/delete', { params: { id: removing!.id }, silent: true });
          setRemoving(null);
          onChanged();
          load();
        }}
        onClose={() => setRemoving(null)}
      />
      <div style={{ overflowX: 'auto' }}>
        <HTMLTable compact striped>
          <thead>
            <tr>
              <th>{t('node')}</th>
              <th>{t('kind')}</th>
              <th>{t('address')}</th>
              <th>{t('health')}</th>
              <th>{t('pairs')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {nodes.map((n) => (
              <tr key={n.id} data-testid={`node-${n.id}`}>
                <td>{n.containerName}</td>
                <td>
                  {kinds.find((k) => k.kind === n.kind)?.name[zh ? 'zh-CN' : 'en-US'] ?? n.kind}
                  {n.unavailable && <Tag intent={Intent.WARNING} minimal style={{ marginLeft: 4 }} title={n.unavailable} data-testid="node-unavailable">{t('unavailable')}</Tag>}
                </td>
                <td>{n.baseUrl ?? n.ip ?? ''}</td>
                <td>
                  <Tag intent={HEALTH_INTENT[n.health]} title={n.lastError ?? ''} data-testid="node-health">{t(`health_${n.health}`)}</Tag>
                </td>
                <td>{n.pairs.length}</td>
                <td>
                  {permissions.hasButton('service:control') &&
                    (n.running ? (
                      <Button small icon="stop" data-testid="stop-node" loading={busy === n.id} onClick={() => control(n, 'stop')} text={t('stop')} />
                    ) : (
                      <Button small icon="play" intent={Intent.PRIMARY} data-testid="start-node" loading={busy === n.id} onClick={() => control(n, 'start')} text={t('start')} />
                    ))}{' '}
                  {permissions.hasButton('service:edit') && <Button small minimal icon="trash" aria-label={t('deleteNode')} onClick={() => setRemoving(n)} />}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
    </Card>
  );
}

/**
 * The nodes of one capability routed by language, not under an engine, since routing picks any running,
 * healthy node of the capability for the language: speech (the built-in pocketsphinx, remote whisper
 * servers), OCR (tesseract, PaddleOCR), speakers (any language) or a plugin's own capability. Title, help
 * and icon come from the capability's declaration. Listed with their health and languages, started,
 * stopped, added and deleted here.
 */
export function CapabilityNodes({ capability: declared, kinds }: { capability: Capability; kinds: AdapterKind[] }) {
  // Test ids by capability: speech-nodes, ocr-nodes, tts-nodes...
  const capability = declared.id;
  const { t, i18n } = useTranslation();
  const zh = i18n.language.startsWith('zh');
  const pick = (l: Localized) => (zh ? l['zh-CN'] : l['en-US']);
  const title = pick(declared.console.title);
  const api = useApi();
  const notify = useNotify();
  const permissions = usePermission();
  const [nodes, setNodes] = useState<(EngineNode & { languages: string[] })[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<EngineNode | null>(null);
  const [kind, setKind] = useState('');
  const load = useCallback(() => {
    api.get<(EngineNode & { languages: string[] })[]>(`/translServiceNode/${capability}Nodes`, { silent: true }).then(
      (r) => {
        setNodes(r);
        setError(null);
      },
      (err: ApiErrorInfo) => setError(err.msg),
    );
  }, [api, capability]);
  useEffect(load, [load]);
  const control = async (node: EngineNode, action: 'start' | 'stop') => {
    setBusy(node.id);
    try {
      await api.get(`/translServiceNode/${action}TranslationService`, { params: { id: node.id }, silent: true });
      notify.success(t(action === 'start' ? 'started' : 'stopped', { name: node.containerName }));
    } catch (err) {
      notify.error((err as ApiErrorInfo).msg);
    } finally {
      setBusy(null);
      load();
    }
  };
  const addable = kinds.filter((k) => !k.local);
  const chosen = addable.find((k) => k.kind === kind) ?? addable[0];
  const fields: FormField[] = [
    {
      name: 'kind',
      label: t('kind'),
      type: 'custom',
      required: true,
      render: (value, setValue) => (
        <HTMLSelect
          data-testid={`${capability}-node-kind`}
          value={String(value ?? chosen?.kind ?? '')}
          onChange={(e) => {
            setValue(e.currentTarget.value);
            setKind(e.currentTarget.value);
          }}
          options={addable.map((k) => ({ value: k.kind, label: zh ? k.name['zh-CN'] : k.name['en-US'] }))}
        />
      ),
    },
    { name: 'containerName', label: t('containerName'), required: true },
    { name: 'authenticationFile', label: t('authenticationFile'), required: true },
    ...configFields(chosen, zh, t('listHelp')),
  ];
  return (
    <Card data-testid={`${capability}-nodes`}>
      <H4>
        {declared.console.icon && <Icon icon={declared.console.icon as IconName} style={{ marginRight: 6 }} />}
        {title}
      </H4>
      {declared.console.help && <div style={{ color: '#5f6b7c', marginBottom: 8 }}>{pick(declared.console.help)}</div>}
      {error && <Callout intent={Intent.DANGER}>{t('loadFailed', { msg: error })}</Callout>}
      {permissions.hasButton('service:edit') && addable.length > 0 && <Button small icon="add" data-testid={`add-${capability}-node`} onClick={() => setAdding(true)} text={declared.console.addNode ? pick(declared.console.addNode) : t('addNode')} />}
      {nodes === null && !error && <div>{t('loading')}</div>}
      {nodes?.length === 0 && <Callout>{declared.console.noNodes ? pick(declared.console.noNodes) : t('noCapabilityNodes', { name: title })}</Callout>}
      {!!nodes?.length && (
        <HTMLTable compact striped>
          <thead>
            <tr>
              <th>{t('node')}</th>
              <th>{t('kind')}</th>
              <th>{t('address')}</th>
              <th>{t('health')}</th>
              <th>{t('nodeLanguages')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {nodes.map((n) => (
              <tr key={n.id} data-testid={`${capability}-node-${n.id}`}>
                <td>{n.containerName}</td>
                <td>
                  {kinds.find((k) => k.kind === n.kind)?.name[zh ? 'zh-CN' : 'en-US'] ?? n.kind}
                  {n.unavailable && <Tag intent={Intent.WARNING} minimal style={{ marginLeft: 4 }} title={n.unavailable}>{t('unavailable')}</Tag>}
                </td>
                <td>{n.baseUrl ?? n.ip ?? ''}</td>
                <td>
                  <Tag intent={HEALTH_INTENT[n.health]} title={n.lastError ?? ''} data-testid={`${capability}-node-health`}>{t(`health_${n.health}`)}</Tag>
                </td>
                <td>{n.languages.map((l) => (l === '*' ? t('anyLanguage') : l)).join(', ')}</td>
                <td>
                  {permissions.hasButton('service:control') &&
                    (n.running ? (
                      <Button small icon="stop" loading={busy === n.id} onClick={() => void control(n, 'stop')} text={t('stop')} />
                    ) : (
                      <Button small icon="play" intent={Intent.PRIMARY} loading={busy === n.id} onClick={() => void control(n, 'start')} text={t('start')} />
                    ))}{' '}
                  {permissions.hasButton('service:edit') && <Button small minimal icon="trash" aria-label={t('deleteNode')} onClick={() => setRemoving(n)} />}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      <FormDialog
        isOpen={adding}
        title={declared.console.addNode ? pick(declared.console.addNode) : t('addNode')}
        fields={fields}
        initialValues={{ kind: chosen?.kind ?? '' }}
        onSubmit={async (values) => {
          const body = Object.fromEntries(Object.entries(values).filter(([k, v]) => !k.startsWith(CONFIG) && v !== '' && v !== undefined && v !== null));
          const nodeKind = addable.find((k) => k.kind === (body.kind ?? chosen?.kind));
          await api.post('/translServiceNode/add', { ...body, kind: nodeKind?.kind, config: configOf(nodeKind, values) }, { silent: true });
          notify.success(t('nodeAdded'));
          setAdding(false);
          load();
        }}
        onClose={() => setAdding(false)}
      />
      <ConfirmDialog
        isOpen={!!removing}
        title={t('deleteNode')}
        message={t('deleteNodeMessage', { name: removing?.containerName ?? '' })}
        count={1}
        items={removing ? [removing.containerName] : []}
        intent="danger"
        onConfirm={async () => {
          await api.delete('/translServiceNode/delete', { params: { id: removing!.id }, silent: true });
          setRemoving(null);
          load();
        }}
        onClose={() => setRemoving(null)}
      />
    </Card>
  );
}

/** Trusted licence keys: listed to holders of service:licence; added and removed by the super administrator. */
function TrustedKeys() {
  const { t } = useTranslation();
  const api = useApi();
  const notify = useNotify();
  const [keys, setKeys] = useState<{ id: number; name: string; publicKey: string }[]>([]);
  const [adding, setAdding] = useState(false);
  const load = useCallback(() => {
    api.get<{ id: number; name: string; publicKey: string }[]>('/translServiceNode/trustedKeys', { silent: true }).then(setKeys, () => {});
  }, [api]);
  useEffect(load, [load]);
  return (
    <Card data-testid="trusted-keys">
      <H4>{t('trustedKeys')}</H4>
      <div style={{ color: '#5f6b7c', marginBottom: 8 }}>{t('trustedKeysHelp')}</div>
      <ul>
        {keys.map((k) => (
          <li key={k.id}>
            {k.name} <code>{k.publicKey.slice(0, 24)}…</code>{' '}
            <Button small minimal icon="trash" aria-label={t('remove')} onClick={() => api.delete(`/translServiceNode/trustedKey/${k.id}`, { silent: true }).then(load, (e: ApiErrorInfo) => notify.error(e.msg))} />
          </li>
        ))}
      </ul>
      <Button small icon="add" onClick={() => setAdding(true)} text={t('addKey')} />
      <FormDialog
        isOpen={adding}
        title={t('addKey')}
        fields={[{ name: 'name', label: t('keyName'), required: true }, { name: 'publicKey', label: t('publicKey'), type: 'textarea', required: true }]}
        onSubmit={async (v) => {
          await api.post('/translServiceNode/addTrustedKey', v, { silent: true });
          setAdding(false);
          load();
        }}
        onClose={() => setAdding(false)}
      />
    </Card>
  );
}

/** Engine management (/service): engines with their nodes, health, start and stop. */
function Service() {
  const { t } = useTranslation();
  const api = useApi();
  const [engines, setEngines] = useState<Engine[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    api.get<{ records: Engine[] }>('/translServiceInfo/getTranslationServiceByPage', { params: { pageNum: 1, pageSize: 100 }, silent: true }).then(
      (r) => setEngines(r.records),
      (err: ApiErrorInfo) => setError(err.msg),
    );
  }, [api]);
  useEffect(load, [load]);
  const permissions = usePermission();
  const [adding, setAdding] = useState(false);
  const [kinds, setKinds] = useState<AdapterKind[]>([]);
  const [capabilities, setCapabilities] = useState<Capability[]>([]);
  useEffect(() => {
    api.get<AdapterKind[]>('/translServiceNode/kinds', { silent: true }).then(setKinds, () => {});
    api.get<Capability[]>('/translServiceNode/capabilities', { silent: true }).then(setCapabilities, () => {});
  }, [api]);
  const byRouting = (routing: Capability['routing']) => capabilities.filter((c) => c.routing === routing);
  const kindsOf = (of: Capability[]) => kinds.filter((k) => of.some((c) => c.id === k.capability));
  return (
    <div data-testid="service-view" style={{ padding: 16, display: 'grid', gap: 12 }}>
      <PageHeader
        title={t('title')}
        actions={permissions.hasButton('service:edit') && <Button icon="add" intent={Intent.PRIMARY} data-testid="add-engine" onClick={() => setAdding(true)} text={t('addEngine')} />}
      />
      {error && <Callout intent={Intent.DANGER}>{t('loadFailed', { msg: error })}</Callout>}
      <FormDialog
        isOpen={adding}
        title={t('addEngine')}
        fields={engineFields(t)}
        initialValues={{ containerCount: 1 }}
        onSubmit={async (v) => {
          const body = Object.fromEntries(Object.entries(v).filter(([, x]) => x !== '' && x !== undefined && x !== null));
          if (body.containerCount !== undefined) body.containerCount = Number(body.containerCount);
          await api.post('/translServiceInfo/add', body, { silent: true });
          setAdding(false);
          load();
        }}
        onClose={() => setAdding(false)}
      />
      {engines?.length === 0 && <Callout>{t('noEngines')}</Callout>}
      {engines?.map((e) => <EngineCard key={e.id} engine={e} kinds={kindsOf(byRouting('pairs'))} onChanged={load} />)}
      {permissions.hasButton('service:view') && byRouting('language').map((c) => <CapabilityNodes key={c.id} capability={c} kinds={kindsOf([c])} />)}
      {permissions.hasButton('service:view') && <LanguagePacks onChanged={load} />}
      {permissions.hasButton('service:licence') && <TrustedKeys />}
    </div>
  );
}

export default definePlugin({ id: 'service', views: { Service } });
