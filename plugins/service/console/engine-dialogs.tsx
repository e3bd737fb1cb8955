import { useEffect, useState } from 'react';
import { FormDialog, useApi, useNotify, useTranslation, type ApiErrorInfo, type FormField, type FormValues } from '@linguaport/sdk/console';

/** The engine fields these dialogs read (a subset of the list row). */
export interface EditableEngine {
  id: number;
  name: string;
  imageName: string;
  sourceLanguage: string | null;
  targetLanguage: string | null;
  domain: string | null;
  consumer: string | null;
  nodeIds: number[];
  expiresAt: string | null;
  enabled: boolean;
  containerCount: number;
  languageAbbreviations: Record<string, string> | null;
}
interface PairNode {
  pairs: { source: string; target: string }[];
}

/** Empty text means "cleared": the server takes null for the optional columns. */
const textOrNull = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** `datetime-local` wants `YYYY-MM-DDTHH:mm` in local time; the server sends and takes ISO UTC. */
function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** `1, 2 3` -> [1, 2, 3]; a part that is no number is sent as is so the server's 400 names the field. */
function parseIds(v: unknown): unknown[] {
  return String(v ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((x) => (/^\d+$/.test(x) ? Number(x) : x));
}

/**
 * Edit, model, model language and abbreviation dialogs of one engine (spec 01 section 7.5).
 * Each submits straight to its server call; FormDialog places the server's 400 beside fields.
 */
/** The engine form of the add and edit dialogs: the edit dialog adds its own fields before the container count. */
export function engineFields(t: (key: string) => string, extra: FormField[] = []): FormField[] {
  return [
    { name: 'name', label: t('engineName'), required: true },
    { name: 'imageName', label: t('imageName'), required: true, helperText: t('imageNameHelp') },
    { name: 'sourceLanguage', label: t('sourceLanguage'), placeholder: t('any') },
    { name: 'targetLanguage', label: t('targetLanguage'), placeholder: t('any') },
    { name: 'domain', label: t('domain') },
    { name: 'consumer', label: t('consumer') },
    ...extra,
    { name: 'containerCount', label: t('containers'), type: 'number' },
  ];
}

export function EngineDialogs({ engine, nodes, open, onClose, onChanged }: { engine: EditableEngine; nodes: PairNode[]; open: 'edit' | 'model' | 'language' | 'abbreviations' | null; onClose(): void; onChanged(): void }) {
  const { t } = useTranslation();
  const api = useApi();
  const notify = useNotify();
  const [sources, setSources] = useState<string[]>([]);

  // Abbreviations are kept per source language of the pairs the engine serves.
  useEffect(() => {
    if (open !== 'abbreviations') return;
    api.get<{ source: string }[]>(`/translServiceInfo/getTranslationServiceByIdLanguage/${engine.id}`, { silent: true }).then(
      (pairs) => {
        const found = [...new Set(pairs.map((p) => p.source))].sort();
        setSources(found);
        // Without pairs there is nothing to abbreviate: say so instead of an empty dialog.
        if (!found.length) {
          notify.warning(t('noPairs'));
          onClose();
        }
      },
      (err: ApiErrorInfo) => {
        notify.error(err.msg);
        onClose();
      },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, engine.id, open]);

  const editFields = engineFields(t, [
    { name: 'nodeIds', label: t('nodeIds'), helperText: t('nodeIdsHelp') },
    { name: 'expiresAt', label: t('expiryTime'), type: 'datetime', helperText: t('expiryTimeHelp') },
    { name: 'enabled', label: t('enabled'), type: 'checkbox' },
  ]);
  const edit = async (v: FormValues) => {
    const expires = textOrNull(v.expiresAt);
    await api.put(
      '/translServiceInfo/update',
      {
        id: engine.id,
        name: String(v.name ?? ''),
        imageName: String(v.imageName ?? ''),
        sourceLanguage: textOrNull(v.sourceLanguage),
        targetLanguage: textOrNull(v.targetLanguage),
        domain: textOrNull(v.domain),
        consumer: textOrNull(v.consumer),
        nodeIds: parseIds(v.nodeIds),
        expiresAt: expires && !Number.isNaN(new Date(expires).getTime()) ? new Date(expires).toISOString() : expires,
        enabled: !!v.enabled,
        containerCount: v.containerCount === undefined || v.containerCount === '' ? undefined : Number(v.containerCount),
      },
      { silent: true },
    );
    notify.success(t('engineSaved'));
    onChanged();
  };

  const languages = [...new Set(nodes.flatMap((n) => n.pairs.flatMap((p) => [p.source, p.target])))].sort();
  const sourceOptions = [...new Set(nodes.flatMap((n) => n.pairs.map((p) => p.source)))].sort().map((l) => ({ value: l, label: l }));
  const targetOptions = [...new Set(nodes.flatMap((n) => n.pairs.map((p) => p.target)))].sort().map((l) => ({ value: l, label: l }));

  return (
    <>
      <FormDialog
        isOpen={open === 'edit'}
        title={t('editEngine')}
        fields={editFields}
        initialValues={{
          name: engine.name,
          imageName: engine.imageName,
          sourceLanguage: engine.sourceLanguage ?? '',
          targetLanguage: engine.targetLanguage ?? '',
          domain: engine.domain ?? '',
          consumer: engine.consumer ?? '',
          nodeIds: engine.nodeIds.join(', '),
          expiresAt: toLocalInput(engine.expiresAt),
          enabled: engine.enabled,
          containerCount: engine.containerCount,
        }}
        onSubmit={edit}
        onClose={onClose}
      />
      <FormDialog
        isOpen={open === 'model'}
        title={t('selectModel')}
        fields={[{ name: 'model', label: t('model'), required: true, helperText: t('selectModelHelp') }]}
        initialValues={{ model: engine.imageName.includes(':') ? engine.imageName.slice(engine.imageName.indexOf(':') + 1) : '' }}
        onSubmit={async (v) => {
          await api.post('/translServiceInfo/selectUsedModel', { id: engine.id, model: String(v.model ?? '') }, { silent: true });
          notify.success(t('engineSaved'));
          onChanged();
        }}
        onClose={onClose}
      />
      <FormDialog
        isOpen={open === 'language'}
        title={t('selectLanguage')}
        fields={[
          { name: 'sourceLanguage', label: t('sourceLanguage'), type: 'select', placeholder: t('any'), options: sourceOptions },
          { name: 'targetLanguage', label: t('targetLanguage'), type: 'select', placeholder: t('any'), options: targetOptions, helperText: languages.length ? undefined : t('noPairs') },
        ]}
        initialValues={{ sourceLanguage: engine.sourceLanguage ?? undefined, targetLanguage: engine.targetLanguage ?? undefined }}
        onSubmit={async (v) => {
          await api.post('/translServiceInfo/selectModelLanguage', { id: engine.id, sourceLanguage: textOrNull(v.sourceLanguage), targetLanguage: textOrNull(v.targetLanguage) }, { silent: true });
          notify.success(t('engineSaved'));
          onChanged();
        }}
        onClose={onClose}
      />
      <FormDialog
        isOpen={open === 'abbreviations' && sources.length > 0}
        title={t('abbreviations')}
        fields={sources.map((l) => ({ name: l, label: l, placeholder: t('abbreviationPlaceholder') }))}
        initialValues={{ ...(engine.languageAbbreviations ?? {}) }}
        onSubmit={async (v) => {
          // The server merges: a blank field keeps what is stored (it has no call to remove one).
          const abbreviations = Object.fromEntries(Object.entries(v).filter(([k, x]) => sources.includes(k) && typeof x === 'string' && x.trim() !== '').map(([k, x]) => [k, String(x).trim()]));
          await api.post('/translServiceInfo/addUseLanguageAbbreviation', { id: engine.id, abbreviations }, { silent: true });
          notify.success(t('abbreviationsSaved'));
          onChanged();
        }}
        onClose={onClose}
      />
    </>
  );
}
