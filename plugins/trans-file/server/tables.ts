import { sql, type ColumnType, type Generated, type Kysely } from 'kysely';
import type { Migration } from '@linguaport/sdk/server';
import type { FileStatus, PdfStatus, PreviewStatus, ResultType, UnitSentence } from '../shared/schemas.js';

/** The area's own tables (namespace `trans_file_`), typed for Kysely. */

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export interface FilesTable {
  id: Generated<number>;
  owner_id: number;
  /** The batch (archive) the file came in, for /transFileDog. */
  job_id: number | null;
  name: string;
  size: ColumnType<number, number, number>;
  format: string;
  /** Storage keys (under the plugin's folder). */
  source_key: string;
  result_key: string | null;
  result_name: string | null;
  result_size: ColumnType<number, number | null, number | null> | null;
  pdf_key: string | null;
  pdf_size: ColumnType<number, number | null, number | null> | null;
  source_lang: string;
  target_lang: string;
  domain: string | null;
  term_bases: Json<number[]>;
  memories: Json<number[]>;
  result_type: ResultType;
  with_pdf: boolean;
  status: FileStatus;
  preview_status: PreviewStatus;
  pdf_status: PdfStatus | null;
  characters: ColumnType<number, number | undefined, number>;
  segments: ColumnType<number, number | undefined, number>;
  segments_done: ColumnType<number, number | undefined, number>;
  task_id: string | null;
  error: string | null;
  /** The unguessable id of its download through the LibreTranslate-compatible API (files that came that way). */
  download_token: ColumnType<string | null, string | null | undefined, string | null>;
  /** How it arrived: the console, the LibreTranslate-compatible API, or an archive. */
  via: 'console' | 'api' | 'archive';
  /** Whether any text of it was recognised from page images (a scanned PDF). */
  ocr: Generated<boolean>;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
}

export interface UnitsTable {
  file_id: number;
  idx: number;
  unit_id: string;
  source: string;
  target: string | null;
  origin: string | null;
  edited: Generated<boolean>;
  part: string | null;
  /** The unit's style as its format reports it (`ocr` for recognised text, a paragraph style…). */
  style: ColumnType<string | null, string | null | undefined, string | null>;
  /** What the format says of where the unit stands (a PDF block's box and page size, a subtitle's timing). */
  meta: ColumnType<Record<string, string> | null, string | null | undefined, string | null>;
  /** The paragraph's sentences as translated (see `UnitSentence`), when it has more than one. */
  sentences: ColumnType<UnitSentence[] | null, string | null | undefined, string | null>;
}

export interface SettingsTable {
  key: string;
  value: Json<unknown>;
}

export interface QuotasTable {
  user_id: number;
  quota_mb: number;
}

export interface JobsTable {
  id: Generated<number>;
  owner_id: number;
  name: string;
  size: number;
  source_key: string;
  source_lang: string;
  target_lang: string;
  options: Json<unknown>;
  /** Files in the archive that were left out (unsupported, empty, too large), with the reason. */
  skipped: Json<Array<{ name: string; reason: string }>>;
  result_key: string | null;
  result_size: number | null;
  status: 'translating' | 'completed' | 'failed' | 'packing';
  created_at: Generated<Timestamp>;
  finished_at: Timestamp | null;
}

export interface ConversionsTable {
  id: Generated<number>;
  owner_id: number;
  name: string;
  size: number;
  source_key: string;
  direction: 'pdfToDocx' | 'toPdf';
  result_key: string | null;
  result_name: string | null;
  result_size: number | null;
  status: PdfStatus;
  task_id: string | null;
  error: string | null;
  created_at: Generated<Timestamp>;
  finished_at: Timestamp | null;
}

export interface TransFileDatabase {
  trans_file_files: FilesTable;
  trans_file_units: UnitsTable;
  trans_file_settings: SettingsTable;
  trans_file_quotas: QuotasTable;
  trans_file_jobs: JobsTable;
  trans_file_conversions: ConversionsTable;
}

export type Db = Kysely<TransFileDatabase>;

export const migrations: Migration<TransFileDatabase>[] = [
  {
    name: '001_files_and_units',
    async up(db) {
      await db.schema
        .createTable('trans_file_files')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('owner_id', 'integer', (c) => c.notNull())
        .addColumn('job_id', 'integer')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('format', 'text', (c) => c.notNull())
        .addColumn('source_key', 'text', (c) => c.notNull())
        .addColumn('result_key', 'text')
        .addColumn('result_name', 'text')
        .addColumn('result_size', 'bigint')
        .addColumn('pdf_key', 'text')
        .addColumn('pdf_size', 'bigint')
        .addColumn('source_lang', 'text', (c) => c.notNull())
        .addColumn('target_lang', 'text', (c) => c.notNull())
        .addColumn('domain', 'text')
        .addColumn('term_bases', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .addColumn('memories', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .addColumn('result_type', 'text', (c) => c.notNull().check(sql`result_type in ('translated', 'bilingual', 'table')`))
        .addColumn('with_pdf', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('preview_status', 'text', (c) => c.notNull().defaultTo('notPreviewed'))
        .addColumn('pdf_status', 'text')
        .addColumn('characters', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('segments', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('segments_done', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('task_id', 'uuid')
        .addColumn('error', 'text')
        .addColumn('via', 'text', (c) => c.notNull().defaultTo('console'))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('started_at', 'timestamptz')
        .addColumn('finished_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('trans_file_files_owner').on('trans_file_files').columns(['owner_id', 'id']).execute();
      await db.schema.createIndex('trans_file_files_status').on('trans_file_files').columns(['status']).execute();
      await db.schema.createIndex('trans_file_files_job').on('trans_file_files').columns(['job_id']).execute();
      await db.schema
        .createTable('trans_file_units')
        .addColumn('file_id', 'integer', (c) => c.notNull().references('trans_file_files.id').onDelete('cascade'))
        .addColumn('idx', 'integer', (c) => c.notNull())
        .addColumn('unit_id', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('target', 'text')
        .addColumn('origin', 'text')
        .addColumn('edited', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('part', 'text')
        .addPrimaryKeyConstraint('trans_file_units_pk', ['file_id', 'idx'])
        .execute();
      await db.schema.createTable('trans_file_settings').addColumn('key', 'text', (c) => c.primaryKey()).addColumn('value', 'jsonb', (c) => c.notNull()).execute();
      await db.schema.createTable('trans_file_quotas').addColumn('user_id', 'integer', (c) => c.primaryKey()).addColumn('quota_mb', 'integer', (c) => c.notNull()).execute();
      await db.schema
        .createTable('trans_file_jobs')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('owner_id', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('source_key', 'text', (c) => c.notNull())
        .addColumn('source_lang', 'text', (c) => c.notNull())
        .addColumn('target_lang', 'text', (c) => c.notNull())
        .addColumn('options', 'jsonb', (c) => c.notNull())
        .addColumn('skipped', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .addColumn('result_key', 'text')
        .addColumn('result_size', 'bigint')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('finished_at', 'timestamptz')
        .execute();
      await db.schema
        .createTable('trans_file_conversions')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('owner_id', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('source_key', 'text', (c) => c.notNull())
        .addColumn('direction', 'text', (c) => c.notNull().check(sql`direction in ('pdfToDocx', 'toPdf')`))
        .addColumn('result_key', 'text')
        .addColumn('result_name', 'text')
        .addColumn('result_size', 'bigint')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('task_id', 'uuid')
        .addColumn('error', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('finished_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('trans_file_conversions_owner').on('trans_file_conversions').columns(['owner_id', 'id']).execute();
    },
  },
  {
    name: '002_download_tokens',
    async up(db) {
      await db.schema.alterTable('trans_file_files').addColumn('download_token', 'uuid').execute();
      await db.schema.createIndex('trans_file_files_download_token').on('trans_file_files').column('download_token').unique().execute();
    },
  },
  {
    name: '003_ocr_and_unit_meta',
    async up(db) {
      await db.schema.alterTable('trans_file_files').addColumn('ocr', 'boolean', (c) => c.notNull().defaultTo(false)).execute();
      await db.schema.alterTable('trans_file_units').addColumn('style', 'text').execute();
      await db.schema.alterTable('trans_file_units').addColumn('meta', 'jsonb').execute();
    },
  },
  {
    name: '004_unit_sentences',
    async up(db) {
      await db.schema.alterTable('trans_file_units').addColumn('sentences', 'jsonb').execute();
    },
  },
];
