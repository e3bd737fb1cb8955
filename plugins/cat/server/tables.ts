import { sql, type ColumnType, type Generated } from 'kysely';
import type { Migration } from '@linguaport/sdk/server';

/** A sentence's state (the SDK's `sentence` machine). */
export type SentenceState = 'unconfirmed' | 'confirmed' | 'reviewConfirmed';
/** Who or what made a segment's current target. */
export type SegmentOrigin = 'file' | 'memory' | 'engine' | 'human';

/** The CAT area's own tables (namespace `cat_`), typed for Kysely. */
export interface CatDatabase {
  /**
   * One sentence of a CAT file. `file_id` names the file as the projects' table will (it comes with
   * the project routes); a file's segments are written once, by `importSegments`.
   */
  cat_segments: {
    id: Generated<number>;
    file_id: number;
    /** The file's unit (paragraph) the segment belongs to, in file order, and the format's id for it. */
    paragraph: number;
    unit_id: string;
    /** Order of the sentence in its paragraph. */
    position: number;
    /** Text of the paragraph kept as it is around the sentence (spaces, lone tags): `before` it, and `after` the paragraph's last one. */
    before: ColumnType<string, string | undefined, never>;
    after: ColumnType<string, string | undefined, never>;
    source: string;
    /** Hash of the normalised source: repetitions and, later, memory lookups. */
    source_key: string;
    target: string | null;
    /** The inline codes of source and target: placeholder number -> `{kind, original, closing}`. */
    tags: ColumnType<Record<string, unknown>, string, never>;
    state: ColumnType<SentenceState, SentenceState | undefined, SentenceState>;
    /** Mark: the same normalised source was seen earlier in the file. */
    repeated: ColumnType<boolean, boolean | undefined, never>;
    origin: SegmentOrigin | null;
    /** For `file`: the file's own state words (`needs-review-translation`, `final approved`, `initial`). */
    origin_file_state: string | null;
    /** For `memory`: the match score and the memory's id. */
    origin_score: number | null;
    origin_memory_id: number | null;
    /** For `engine`: the engine that translated it. */
    origin_engine: string | null;
    locked: ColumnType<boolean, boolean | undefined, boolean>;
    editor_id: number | null;
    edited_at: Date | null;
    /** 1 as imported; each revision adds one. A write names the version it read. */
    version: ColumnType<number, number | undefined, number>;
  };
  /** A file's one import: claimed before its first segment is written, finished after its last. */
  cat_segment_imports: {
    file_id: number;
    format: string;
    segments: ColumnType<number | null, never, number>;
    started_at: ColumnType<Date, never, never>;
    finished_at: ColumnType<Date | null, never, Date>;
  };
  /** Every change of a segment, append-only (a trigger refuses updates). */
  cat_segment_revisions: {
    id: Generated<number>;
    segment_id: number;
    /** The segment's version this change made. */
    version: number;
    author_id: number | null;
    at: ColumnType<Date, never, never>;
    old_target: string | null;
    new_target: string | null;
    old_state: SentenceState;
    new_state: SentenceState;
    /** The origin of the new target. */
    origin: SegmentOrigin | null;
  };
}

/** Migrations run in order, once each, at start-up; a released one is never edited, a new one is added. */
export const catMigrations: Migration<CatDatabase>[] = [
  {
    name: '001_segment_store',
    async up(db) {
      await db.schema
        .createTable('cat_segments')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('file_id', 'integer', (c) => c.notNull())
        .addColumn('paragraph', 'integer', (c) => c.notNull())
        .addColumn('unit_id', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('before', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('after', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('source_key', 'text', (c) => c.notNull())
        .addColumn('target', 'text')
        .addColumn('tags', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('unconfirmed').check(sql`state in ('unconfirmed', 'confirmed', 'reviewConfirmed')`))
        .addColumn('repeated', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('origin', 'text', (c) => c.check(sql`origin in ('file', 'memory', 'engine', 'human')`))
        .addColumn('origin_file_state', 'text')
        .addColumn('origin_score', 'smallint')
        .addColumn('origin_memory_id', 'integer')
        .addColumn('origin_engine', 'text')
        .addColumn('locked', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('editor_id', 'integer')
        .addColumn('edited_at', 'timestamptz')
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addUniqueConstraint('cat_segments_place', ['file_id', 'paragraph', 'position'])
        .execute();
      await db.schema.createIndex('cat_segments_source_key').on('cat_segments').columns(['file_id', 'source_key']).execute();
      await db.schema
        .createTable('cat_segment_revisions')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('segment_id', 'integer', (c) => c.notNull().references('cat_segments.id').onDelete('cascade'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('author_id', 'integer')
        .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('old_target', 'text')
        .addColumn('new_target', 'text')
        .addColumn('old_state', 'text', (c) => c.notNull())
        .addColumn('new_state', 'text', (c) => c.notNull())
        .addColumn('origin', 'text')
        .addUniqueConstraint('cat_segment_revisions_version', ['segment_id', 'version'])
        .execute();
      // Append-only in the database itself: no code path, present or later, can rewrite history.
      // (Deleting a file's segments still removes their revisions by cascade.)
      await sql`create function cat_revisions_append_only() returns trigger language plpgsql as $$
        begin raise exception 'cat_segment_revisions is append-only'; end $$`.execute(db);
      await sql`create trigger cat_revisions_no_update before update on cat_segment_revisions
        for each row execute function cat_revisions_append_only()`.execute(db);
    },
  },
  {
    // One claim per file: a second import is refused at once, and a task retried after a crash can
    // tell an unfinished import (finished_at null) from a finished one.
    name: '002_segment_imports',
    async up(db) {
      await db.schema
        .createTable('cat_segment_imports')
        .addColumn('file_id', 'integer', (c) => c.primaryKey())
        .addColumn('format', 'text', (c) => c.notNull())
        .addColumn('segments', 'integer')
        .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('finished_at', 'timestamptz')
        .execute();
    },
  },
];
