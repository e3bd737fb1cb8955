import type { Kysely } from 'kysely';
import { z } from 'zod';
import { idNumberSchema } from '../shared/checks.js';
import { task } from '../shared/states.js';
import type { Locale } from '../shared/manifest.js';

/** Small helpers every server part needs for the spec's calls. */

type Headers = Record<string, string | string[] | undefined>;

/** The interface language of a request: the `locale` cookie, else Accept-Language, else zh-CN (spec 01 section 1). */
export function requestLocale(headers: Headers): Locale {
  const cookie = typeof headers.cookie === 'string' ? headers.cookie : '';
  const fromCookie = /(?:^|;\s*)locale=([^;]+)/.exec(cookie)?.[1];
  if (fromCookie) {
    const value = decodeURIComponent(fromCookie);
    if (value === 'en-US' || value === 'zh-CN') return value;
  }
  const accept = typeof headers['accept-language'] === 'string' ? headers['accept-language'] : '';
  const first = accept.split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('en') ? 'en-US' : 'zh-CN';
}

/** The text in the request's interface language. */
export function say(headers: Headers, zh: string, en: string): string {
  return requestLocale(headers) === 'en-US' ? en : zh;
}

/** Comma-separated ids in a query string (`ids=1,2,3`), as the spec's delete calls send them. */
export const idList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v.join(',') : v).split(',').map((s) => s.trim()).filter(Boolean).map(Number))
  .pipe(z.array(idNumberSchema).min(1, 'validation.required'));

/** Paging fields of a list call's query. */
export const pageQuery = {
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(10),
};

/** Rows a list call skips to reach the page it asks for. */
export const pageOffset = (query: { pageNum: number; pageSize: number }) => (query.pageNum - 1) * query.pageSize;

/** A list call's answer: the page's records, the total (a count column, as the driver returns it) and the paging asked for. */
export const pageOf = <T>(query: { pageNum: number; pageSize: number }, records: T[], total: unknown) => ({
  records,
  total: Number(total ?? 0),
  pageNum: query.pageNum,
  pageSize: query.pageSize,
});

/**
 * The response schema of a list call answered with `pageOf`: `{records, total, pageNum, pageSize}`
 * with `row` describing one record. Declare it as the route's `response.data`, so the API document
 * and the tests (which check every answer against it) know the page's shape.
 */
export const pageSchema = <T extends z.ZodType>(row: T) =>
  z.object({ records: z.array(row), total: z.number().int().min(0), pageNum: z.number().int().min(1), pageSize: z.number().int().min(1) });

/** A time in an answer: a Date (or ISO text) on the server, ISO 8601 text on the wire. */
export const timestampSchema = z.iso.datetime({ offset: true });

/** A name or message given in both interface languages. */
export const localizedTextSchema = z.object({ 'zh-CN': z.string(), 'en-US': z.string() });

/**
 * The response schema of a task as `TaskHandle.start`, `get` and `cancel` answer it (`TaskInfo`), with
 * `output` describing the task's output (null until it completes).
 */
export const taskSchema = <T extends z.ZodType>(output: T) =>
  z.object({
    id: z.string(),
    pluginId: z.string(),
    name: z.string(),
    title: z.string().nullable(),
    state: z.enum(task.states),
    priority: z.number().int(),
    ownerId: z.number().int().nullable(),
    progress: z.object({ done: z.number(), total: z.number(), message: z.string().optional() }),
    attempt: z.number().int(),
    output: output.nullable(),
    error: z.string().nullable(),
    createdAt: timestampSchema,
    startedAt: timestampSchema.nullable(),
    finishedAt: timestampSchema.nullable(),
  });

/** A LIKE pattern matching `text` anywhere, with its wildcards escaped. */
export const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A timestamp column as ISO text, or null. */
export const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);

/**
 * Whether a row other than `exceptId` already holds `value` in `column`, ignoring case: names and
 * codes that differ only in case count as the same (and `lower(column)` can use an index on it).
 */
export async function takenIgnoringCase(db: Kysely<any>, table: string, column: string, value: string, exceptId?: number | null): Promise<boolean> {
  let q = db.selectFrom(table).select('id').where((eb) => eb(eb.fn('lower', [eb.ref(column)]), '=', value.toLowerCase()));
  if (exceptId != null) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

/**
 * How a person is named in "who" columns (history, owners): the real name when they have one, else
 * the account name; null for an unknown user. Lists answer it beside the id, never the id alone.
 */
export function personName(user: { username: string; realName: string | null } | undefined): string | null {
  if (!user) return null;
  return user.realName?.trim() || user.username;
}
