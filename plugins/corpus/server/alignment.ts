import { z } from 'zod';
import type { Kysely } from 'kysely';
import { ApiError, Codes, iso, say, timestampSchema, type ServerPluginContext, uploadedFilesSchema } from '@linguaport/sdk/server';
import { idSchema } from '@linguaport/sdk/shared';
import { BEADS, type Bead } from '../shared/schemas.js';
import { KEYS, type CorpusAccess } from './corpora.js';
import { appendPairs, FILE_MAX_BYTES, TEXT_MAX_CHARS, utf8Text } from './exchange.js';
import { alignSentences, splitSimple } from './gale-church.js';
import type { CorpusDatabase } from './tables.js';

/**
 * Sentence alignment of two monolingual texts into a draft: each text is split into sentences (the
 * platform's splitter, paragraph by paragraph), the sentences are aligned by Gale-Church, and the beads
 * are stored as a draft the user reviews: accept all, accept some (edited or not), or discard.
 */

export interface DraftPair {
  source: string;
  target: string;
  bead: Bead;
  cost: number;
}

/** Sentences of a text; a line break always ends one. */
export function sentencesOf(text: string, split: (paragraph: string) => string[]): string[] {
  const out: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    if (!paragraph.trim()) continue;
    let parts: string[];
    try {
      parts = split(paragraph);
    } catch {
      parts = splitSimple(paragraph);
    }
    for (const s of parts) if (s.trim()) out.push(s.trim());
  }
  return out;
}

/** The draft's pairs: sentences joined per bead with a space (none between CJK sentences). */
export function draftOf(source: string[], target: string[]): DraftPair[] {
  const join = (parts: string[]) => parts.reduce((acc, p) => (!acc ? p : /[\u3000-\u9fff\uff00-\uffef]$/.test(acc) ? acc + p : `${acc} ${p}`), '');
  return alignSentences(source, target).map((b) => ({
    source: join(b.source.map((i) => source[i]!)),
    target: join(b.target.map((j) => target[j]!)),
    bead: b.bead,
    cost: Math.round(b.cost * 100) / 100,
  }));
}

const MAX_SENTENCES = 20_000;

/** An alignment draft as the routes answer it. */
const draftSchema = z.object({
  id: z.number().int(),
  corpusId: z.number().int(),
  pairs: z.array(z.object({ source: z.string(), target: z.string(), bead: z.enum(BEADS).describe('Sentences joined on each side: source-target'), cost: z.number() })),
  createdAt: timestampSchema,
});
const newDraftSchema = draftSchema.extend({ sourceSentences: z.number().int(), targetSentences: z.number().int() });

const draftView = (d: { id: number; corpus_id: number; pairs: unknown; created_at: Date }) => ({ id: d.id, corpusId: d.corpus_id, pairs: d.pairs as DraftPair[], createdAt: iso(d.created_at) });

export function alignmentRoutes(ctx: ServerPluginContext, db: Kysely<CorpusDatabase>, access: CorpusAccess) {
  type Headers = Record<string, string | string[] | undefined>;
  const makeDraft = async (corpusId: number, ownerId: number, sourceText: string, targetText: string, headers: Headers) => {
    const corpus = await db.selectFrom('corpus_corpora').selectAll().where('id', '=', corpusId).executeTakeFirstOrThrow();
    const source = sentencesOf(sourceText, (p) => ctx.engines.split(p, corpus.source_lang));
    const target = sentencesOf(targetText, (p) => ctx.engines.split(p, corpus.target_lang));
    if (!source.length || !target.length) throw new ApiError(Codes.BAD_REQUEST, say(headers, '两段文本都不能为空', 'Both texts are needed'));
    if (source.length > MAX_SENTENCES || target.length > MAX_SENTENCES) throw new ApiError(Codes.BAD_REQUEST, say(headers, `每段文本最多 ${MAX_SENTENCES} 个句子`, `At most ${MAX_SENTENCES} sentences a text`));
    const pairs = draftOf(source, target);
    const row = await db.insertInto('corpus_alignment_drafts').values({ corpus_id: corpusId, owner_id: ownerId, pairs: JSON.stringify(pairs) }).returningAll().executeTakeFirstOrThrow();
    return { ...draftView(row), sourceSentences: source.length, targetSentences: target.length };
  };

  ctx.route({
    method: 'POST',
    url: '/corpus/align/text',
    access: { permission: KEYS.edit },
    summary: 'Align two pasted monolingual texts into a draft of pairs',
    schema: { body: z.object({ corpusId: idSchema, sourceText: z.string().min(1, 'validation.required').max(5_000_000), targetText: z.string().min(1, 'validation.required').max(5_000_000) }) },
    response: { data: newDraftSchema, errors: [404] },
    async handler({ body, caller, headers }) {
      await access.get(caller!, body.corpusId, headers);
      return makeDraft(body.corpusId, caller!.userId, body.sourceText, body.targetText, headers);
    },
  });

  ctx.route({
    method: 'POST',
    url: '/corpus/align/files',
    access: { permission: KEYS.edit },
    summary: 'Align two monolingual TXT files (the source first) into a draft of pairs',
    upload: { maxBytes: 2 * FILE_MAX_BYTES + 1024 * 1024 },
    schema: { body: z.object({ corpusId: idSchema, files: uploadedFilesSchema }) },
    response: { data: newDraftSchema, errors: [404, 413] },
    async handler({ body, caller, headers }) {
      await access.get(caller!, body.corpusId, headers);
      const t = (zh: string, en: string) => say(headers, zh, en);
      if (body.files.length !== 2) throw new ApiError(Codes.BAD_REQUEST, t('对齐需要两个 TXT 文件：先原文，后译文', 'Alignment takes two TXT files: the source first, then the target'));
      for (const f of body.files) {
        if (!f.filename.toLowerCase().endsWith('.txt')) throw new ApiError(Codes.BAD_REQUEST, t(`${f.filename}：对齐的文件必须是 TXT`, `${f.filename}: files to align must be TXT`));
        if (f.size === 0) throw new ApiError(Codes.BAD_REQUEST, t(`${f.filename}：不能上传空文件`, `${f.filename}: cannot upload an empty file`));
        if (f.size > FILE_MAX_BYTES) throw new ApiError(Codes.BAD_REQUEST, t(`${f.filename}：文件超过 20 MB`, `${f.filename}: the file is over 20 MB`));
      }
      const [a, b] = [await utf8Text(body.files[0]!.path, body.files[0]!.filename, t), await utf8Text(body.files[1]!.path, body.files[1]!.filename, t)];
      return makeDraft(body.corpusId, caller!.userId, a, b, headers);
    },
  });

  const draftOfCaller = async (id: number, caller: { userId: number }, headers: Headers) => {
    const d = await db.selectFrom('corpus_alignment_drafts').selectAll().where('id', '=', id).executeTakeFirst();
    if (!d || d.owner_id !== caller.userId) throw new ApiError(Codes.NOT_FOUND, say(headers, `对齐草稿 ${id} 不存在`, `Alignment draft ${id} not found`));
    return d;
  };

  ctx.route({
    method: 'GET',
    url: '/corpus/align/draft',
    access: { permission: KEYS.edit },
    summary: 'One alignment draft of the caller',
    schema: { query: z.object({ id: idSchema }) },
    response: { data: draftSchema, errors: [404] },
    async handler({ query, caller, headers }) {
      const d = await draftOfCaller(query.id, caller!, headers);
      await access.get(caller!, d.corpus_id, headers);
      return draftView(d);
    },
  });

  ctx.route({
    method: 'POST',
    url: '/corpus/align/accept',
    access: { permission: KEYS.edit },
    summary: 'Add a draft\'s pairs to its corpus: all of them, or the chosen ones as edited',
    schema: {
      body: z.object({
        draftId: idSchema,
        /** Absent: every pair of the draft as it is. */
        pairs: z.array(z.object({ source: z.string().trim().max(TEXT_MAX_CHARS), target: z.string().trim().max(TEXT_MAX_CHARS) })).max(MAX_SENTENCES * 2).optional(),
      }),
    },
    response: { data: z.object({ added: z.number().int(), skipped: z.number().int().describe('Beads with one side empty') }), errors: [404] },
    async handler({ body, caller, headers }) {
      const d = await draftOfCaller(body.draftId, caller!, headers);
      await access.get(caller!, d.corpus_id, headers);
      const chosen = (body.pairs ?? (d.pairs as DraftPair[])).map((p) => ({ source: p.source.trim(), target: p.target.trim() }));
      // A bead with one side empty (1-0, 0-1) is no pair: it is left out, not stored half empty.
      const whole = chosen.filter((p) => p.source && p.target && p.source.length <= TEXT_MAX_CHARS && p.target.length <= TEXT_MAX_CHARS);
      await appendPairs(db, access, d.corpus_id, whole);
      await db.deleteFrom('corpus_alignment_drafts').where('id', '=', d.id).execute();
      return { added: whole.length, skipped: chosen.length - whole.length };
    },
  });

  ctx.route({
    method: 'DELETE',
    url: '/corpus/align/draft',
    access: { permission: KEYS.edit },
    summary: 'Discard an alignment draft',
    schema: { query: z.object({ id: idSchema }) },
    response: { data: z.null(), errors: [404] },
    async handler({ query, caller, headers }) {
      const d = await draftOfCaller(query.id, caller!, headers);
      await db.deleteFrom('corpus_alignment_drafts').where('id', '=', d.id).execute();
      return null;
    },
  });
}
