import { tmxDate, type TmxProp, type TmxUnit, type TmxVariant } from '@linguaport/interchange';

/**
 * What a TMX unit says about itself besides its texts, kept on the memory entry it became (column
 * `meta`, migration `004_metadata`) and written back on export: the unit's `tuid`, its attributes
 * (`creationdate`/`creationid`, `changedate`/`changeid`, `usagecount`/`lastusagedate`, `datatype`...),
 * its `<prop>`s as typed key/values (`{type, value, lang?}`, in file order: a type may repeat) and its
 * `<note>`s, and the same of the source and target `tuv`s.
 */
export interface SideMeta {
  attrs?: Record<string, string>;
  props?: TmxProp[];
  notes?: string[];
}
export interface EntryMeta extends SideMeta {
  tuid?: string;
  source?: SideMeta;
  target?: SideMeta;
}

/** The platform's own review-state property: said on export, never kept from a file (it was the state then). */
export const REVIEW_STATE_PROP = 'x-review-state';

function side(attrs: Record<string, string> | undefined, props: TmxProp[] | undefined, notes: string[] | undefined): SideMeta | undefined {
  const out: SideMeta = {};
  if (attrs && Object.keys(attrs).length) out.attrs = { ...attrs };
  const kept = (props ?? []).filter((p) => p.type !== REVIEW_STATE_PROP);
  if (kept.length) out.props = kept;
  if (notes?.length) out.notes = [...notes];
  return Object.keys(out).length ? out : undefined;
}

/** The metadata of the entry made of `source` and `target` of `unit`. */
export function metaOf(unit: TmxUnit, source: TmxVariant, target: TmxVariant): EntryMeta {
  const meta: EntryMeta = { ...side(unit.attrs, unit.props, unit.notes) };
  if (unit.tuid !== undefined) meta.tuid = unit.tuid;
  const s = side(source.attrs, source.props, source.notes);
  const t = side(target.attrs, target.props, target.notes);
  if (s) meta.source = s;
  if (t) meta.target = t;
  return meta;
}

/** Every note of an entry, the unit's first, then its source's and its target's: what a translator is shown. */
export function notesOf(meta: unknown): string[] {
  const m = (meta ?? {}) as EntryMeta;
  return [...(m.notes ?? []), ...(m.source?.notes ?? []), ...(m.target?.notes ?? [])];
}

/** The TMX props a confirmed pair's context is kept in (the source segments before and after it). */
export const CONTEXT_PROPS = { before: 'x-context-before', after: 'x-context-after' } as const;

/** The context an entry keeps, or null. */
export function contextOf(meta: unknown): { before?: string; after?: string } | null {
  const props = ((meta ?? {}) as EntryMeta).props ?? [];
  const before = props.find((p) => p.type === CONTEXT_PROPS.before)?.value;
  const after = props.find((p) => p.type === CONTEXT_PROPS.after)?.value;
  return before === undefined && after === undefined ? null : { ...(before !== undefined ? { before } : {}), ...(after !== undefined ? { after } : {}) };
}

/**
 * The metadata of a pair written through `tm.memories`: its context replaced when one is given, and
 * `changedate`/`changeid` (the author's user id) set; a new entry also gets `creationdate`/`creationid`.
 */
export function writtenMeta(meta: unknown, author: number, context: { before?: string; after?: string } | undefined, now = new Date()): EntryMeta {
  const m = (meta ?? {}) as EntryMeta;
  const fresh = !Object.keys(m).length;
  const attrs = { ...(fresh ? { creationdate: tmxDate(now), creationid: String(author) } : m.attrs), changedate: tmxDate(now), changeid: String(author) };
  let props = m.props ?? [];
  if (context) {
    props = props.filter((p) => p.type !== CONTEXT_PROPS.before && p.type !== CONTEXT_PROPS.after);
    if (context.before !== undefined) props = [...props, { type: CONTEXT_PROPS.before, value: context.before }];
    if (context.after !== undefined) props = [...props, { type: CONTEXT_PROPS.after, value: context.after }];
  }
  const { props: _replaced, ...rest } = m;
  return { ...rest, attrs, ...(props.length ? { props } : {}) };
}

/** An edit changes the text: the kept `changedate` becomes now (the editor's TMX id is not known, so `changeid` goes). */
export function editedMeta(meta: unknown, now = new Date()): EntryMeta | null {
  const m = (meta ?? {}) as EntryMeta;
  if (!Object.keys(m).length) return null;
  const { changeid: _gone, ...attrs } = m.attrs ?? {};
  return { ...m, attrs: { ...attrs, changedate: tmxDate(now) } };
}

export interface EntryForExport {
  id: number;
  source: string;
  target: string;
  source_lang: string;
  target_lang: string;
  status: string;
  created_at: Date | string;
  meta: unknown;
}

/**
 * The unit an entry is written as: its original `tuid` (its id when it has none: an entry made here),
 * its kept attributes, props and notes (an entry made here gets its creation date), and, when asked, its
 * review state as the `x-review-state` prop.
 */
export function unitOf(e: EntryForExport, tags: { source: TmxVariant['tags']; target: TmxVariant['tags'] }, reviewState: boolean): TmxUnit {
  const m = (e.meta ?? {}) as EntryMeta;
  const made = !Object.keys(m).length;
  const attrs = made ? { creationdate: tmxDate(new Date(e.created_at)) } : m.attrs;
  const props = [...(m.props ?? []), ...(reviewState ? [{ type: REVIEW_STATE_PROP, value: e.status }] : [])];
  const variant = (lang: string, text: string, t: TmxVariant['tags'], s: SideMeta | undefined): TmxVariant => ({
    lang,
    text,
    tags: t,
    ...(s?.attrs ? { attrs: s.attrs } : {}),
    ...(s?.props ? { props: s.props } : {}),
    ...(s?.notes ? { notes: s.notes } : {}),
  });
  return {
    tuid: m.tuid ?? String(e.id),
    ...(attrs ? { attrs } : {}),
    props,
    notes: m.notes ?? [],
    variants: [variant(e.source_lang, e.source, tags.source, m.source), variant(e.target_lang, e.target, tags.target, m.target)],
  };
}
