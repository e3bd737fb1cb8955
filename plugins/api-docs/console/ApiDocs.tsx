import { useEffect, useMemo, useState } from 'react';
import { Button, Callout, Card, Collapse, FormGroup, H3, H5, HTMLTable, InputGroup, Intent, NonIdealState, Spinner, Tag, TextArea } from '@blueprintjs/core';
import { useApi, useTranslation, type ApiErrorInfo } from '@linguaport/sdk/console';
import { example, fillPath, operations, typeLabel, type OpenApiDocument, type OperationEntry, type Schema } from './openapi.js';

type Load = { state: 'loading' } | { state: 'failed'; msg: string } | { state: 'ready'; doc: OpenApiDocument };

const METHOD_INTENT: Record<string, Intent> = { GET: Intent.PRIMARY, POST: Intent.SUCCESS, PUT: Intent.WARNING, DELETE: Intent.DANGER };

/** Renders `GET /api/openapi.json` grouped by plugin, each call with its parameters and a try-it-out form. */
export function ApiDocs() {
  const { t } = useTranslation();
  const api = useApi();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState<string | null>(null);

  useEffect(() => {
    api
      .get<OpenApiDocument>('/openapi.json', { silent: true })
      .then((doc) => setLoad({ state: 'ready', doc }))
      .catch((err: ApiErrorInfo) => setLoad({ state: 'failed', msg: err.msg }));
  }, [api]);

  const groups = useMemo(() => {
    if (load.state !== 'ready') return [];
    const needle = filter.trim().toLowerCase();
    const all = operations(load.doc).filter((o) => !needle || `${o.method} ${o.path} ${o.op.summary ?? ''} ${o.op.tags?.join(' ')}`.toLowerCase().includes(needle));
    const byTag = new Map<string, OperationEntry[]>();
    for (const o of all) {
      const tag = o.op.tags?.[0] ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), o]);
    }
    return [...byTag.entries()].sort(([a], [b]) => a.localeCompare(b));
  }, [load, filter]);

  // The document needs credentials, so the download link saves the copy already loaded.
  const download = useMemo(() => (load.state === 'ready' ? URL.createObjectURL(new Blob([JSON.stringify(load.doc, null, 2)], { type: 'application/json' })) : null), [load]);
  useEffect(() => () => void (download && URL.revokeObjectURL(download)), [download]);

  if (load.state === 'loading') return <NonIdealState icon={<Spinner size={24} />} description={t('loading')} />;
  if (load.state === 'failed') return <Callout intent={Intent.DANGER} style={{ margin: 20 }}>{t('loadFailed', { msg: load.msg })}</Callout>;

  return (
    <div data-testid="api-docs-view" style={{ padding: 20, display: 'grid', gap: 12 }}>
      <H3>
        {load.doc.info.title} <Tag minimal>OpenAPI {load.doc.openapi}</Tag> <Tag minimal>v{load.doc.info.version}</Tag>
      </H3>
      <Callout icon="key">
        {t('auth')} <code>X-Api-Key</code>. <a href={download ?? undefined} download="openapi.json">{t('download')}</a> {t('downloadNote')}
      </Callout>
      <InputGroup leftIcon="search" placeholder={t('filter')} value={filter} onValueChange={setFilter} data-testid="api-docs-filter" />
      {groups.map(([tag, ops]) => (
        <Card key={tag} style={{ padding: 12 }}>
          <H5 translate="no">{tag}</H5>
          {ops.map((o) => {
            const id = `${o.method} ${o.path}`;
            return (
              <div key={id} style={{ borderTop: '1px solid #eee', padding: '6px 0' }}>
                <div style={{ display: 'flex', gap: 8, alignItems: 'center', cursor: 'pointer' }} onClick={() => setOpen(open === id ? null : id)} data-testid={`api-op-${o.method}-${o.path}`}>
                  <Tag intent={METHOD_INTENT[o.method] ?? Intent.NONE} style={{ minWidth: 64, textAlign: 'center' }}>{o.method}</Tag>
                  <code>{o.path}</code>
                  {/* The API document is written in English (its summaries are the routes' own): marked as such. */}
                  <span className="bp6-text-muted" lang="en">{o.op.summary}</span>
                  {o.op['x-permission'] && <Tag minimal icon="lock" translate="no">{o.op['x-permission'].join(' | ')}</Tag>}
                  {o.op.security?.length === 0 && <Tag minimal intent={Intent.SUCCESS}>{t('public')}</Tag>}
                </div>
                <Collapse isOpen={open === id}>{open === id && <OperationDetail entry={o} />}</Collapse>
              </div>
            );
          })}
        </Card>
      ))}
    </div>
  );
}

function SchemaTable({ schema }: { schema: Schema }) {
  const { t } = useTranslation();
  const required = new Set(schema.required ?? []);
  const props = Object.entries(schema.properties ?? {});
  if (!props.length) return <code>{typeLabel(schema)}</code>;
  return (
    <HTMLTable compact bordered style={{ width: '100%' }}>
      <thead>
        <tr>
          <th>{t('field')}</th>
          <th>{t('type')}</th>
          <th>{t('required')}</th>
        </tr>
      </thead>
      <tbody>
        {props.map(([name, s]) => (
          <tr key={name}>
            <td><code>{name}</code></td>
            <td>{typeLabel(s)}</td>
            <td>{required.has(name) ? t('yes') : ''}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}

function OperationDetail({ entry }: { entry: OperationEntry }) {
  const { t } = useTranslation();
  const api = useApi();
  const { op, method, path } = entry;
  const params = op.parameters ?? [];
  const [contentType, body] = Object.entries(op.requestBody?.content ?? {})[0] ?? [null, null];
  const multipart = contentType === 'multipart/form-data';
  const [values, setValues] = useState<Record<string, string>>({});
  const [json, setJson] = useState(() => (body && !multipart ? JSON.stringify(example(body.schema), null, 2) : ''));
  const [files, setFiles] = useState<Record<string, File>>({});
  const [result, setResult] = useState<{ ok: boolean; text: string; ms: number } | null>(null);
  const [busy, setBusy] = useState(false);

  const execute = async () => {
    const url = fillPath(path, values);
    const query = Object.fromEntries(params.filter((p) => p.in === 'query' && values[p.name] !== undefined && values[p.name] !== '').map((p) => [p.name, values[p.name]]));
    let payload: unknown;
    if (multipart && body) {
      const form = new FormData();
      for (const [name, s] of Object.entries(body.schema.properties ?? {})) {
        if (s.format === 'binary') {
          if (files[name]) form.append(name, files[name], files[name].name);
        } else if (values[`body.${name}`]) form.append(name, values[`body.${name}`]);
      }
      payload = form;
    } else if (body) {
      try {
        payload = json.trim() ? JSON.parse(json) : undefined;
      } catch {
        return setResult({ ok: false, text: t('badJson'), ms: 0 });
      }
    }
    const started = performance.now();
    setBusy(true);
    try {
      const options = { params: query, silent: true };
      const m = method.toLowerCase();
      const data =
        m === 'get' ? await api.get(url, options) : m === 'delete' ? await api.delete(url, options) : m === 'options' ? await api.options(url, options) : m === 'put' ? await api.put(url, payload, options) : await api.post(url, payload, options);
      setResult({ ok: true, text: JSON.stringify({ code: 200, data }, null, 2), ms: Math.round(performance.now() - started) });
    } catch (err) {
      const e = err as ApiErrorInfo;
      setResult({ ok: false, text: JSON.stringify({ status: e.status, code: e.code, msg: e.msg }, null, 2), ms: Math.round(performance.now() - started) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div style={{ padding: '8px 0 8px 72px', display: 'grid', gap: 8 }}>
      <div>{op.description}</div>
      {params.length > 0 && (
        <>
          <strong>{t('parameters')}</strong>
          {params.map((p) => (
            <FormGroup key={`${p.in}-${p.name}`} inline label={<><code>{p.name}</code> <span className="bp6-text-muted">({p.in}{p.required ? `, ${t('required')}` : ''})</span></>} helperText={typeLabel(p.schema)}>
              <InputGroup size="small" value={values[p.name] ?? ''} onValueChange={(v) => setValues({ ...values, [p.name]: v })} data-testid={`param-${p.name}`} />
            </FormGroup>
          ))}
        </>
      )}
      {body && (
        <>
          <strong>{t('body')} <Tag minimal>{contentType}</Tag></strong>
          <SchemaTable schema={body.schema} />
          {multipart ? (
            Object.entries(body.schema.properties ?? {}).map(([name, s]) => (
              <FormGroup key={name} inline label={<code>{name}</code>}>
                {s.format === 'binary' ? (
                  <input type="file" onChange={(e) => { const f = e.currentTarget.files?.[0]; if (f) setFiles({ ...files, [name]: f }); }} />
                ) : (
                  <InputGroup size="small" value={values[`body.${name}`] ?? ''} onValueChange={(v) => setValues({ ...values, [`body.${name}`]: v })} />
                )}
              </FormGroup>
            ))
          ) : (
            <TextArea fill rows={Math.min(12, json.split('\n').length + 1)} value={json} onChange={(e) => setJson(e.currentTarget.value)} style={{ fontFamily: 'monospace' }} data-testid="api-body" />
          )}
        </>
      )}
      <div>
        <Button intent={Intent.PRIMARY} icon="play" loading={busy} text={t('execute')} onClick={() => void execute()} data-testid="api-execute" />
      </div>
      {result && (
        <Callout intent={result.ok ? Intent.SUCCESS : Intent.DANGER} title={t('response', { ms: result.ms })}>
          <pre style={{ margin: 0, maxHeight: 320, overflow: 'auto' }} data-testid="api-result">{result.text}</pre>
        </Callout>
      )}
    </div>
  );
}
