import { sql, type ColumnType, type Generated, type Kysely } from 'kysely';
import type { Migration } from '@linguaport/sdk/server';
import { backgroundModelBytes, GMM_UBM_METHOD } from '@linguaport/speaker-model';

/** The method of every model made before the engines did the work (the speaker model's MFCC/GMM-UBM, the local speaker engine's). */
export const LEGACY_METHOD = GMM_UBM_METHOD;

/** A background model of 001 (a bare GMM) as the local engine keeps it (the speaker model's `backgroundModelBytes`). */
export const legacyBackground = (ubm: Uint8Array, components: number, dims: number): Uint8Array => backgroundModelBytes(components, dims, ubm);

/** The voiceprint area's own tables (namespace `voiceprint_`), typed for Kysely. */
export interface VoiceprintDatabase {
  /** A department's background model, the method it belongs to, and the state of its training. */
  voiceprint_departments: {
    department_id: number;
    /** The speaker method its background model and speakers' representations are of (`mfcc-gmm-ubm/1`, `embedding/...`); null before the first training. */
    method: string | null;
    /** The background model, opaque bytes of `method` (null for a method that needs none, and before the first training). */
    background: Uint8Array | null;
    /** The threshold the engine suggested for `method` when it trained (null: it suggested none). */
    threshold: number | null;
    /** Bumped by every training that wrote a model: a speaker's model belongs to one of them. */
    model_version: number;
    /** Bumped by every change of the enrolments (speaker or recording added, speaker deleted). */
    data_version: number;
    /** The data version the current model was trained on. */
    trained_version: number;
    status: 'idle' | 'training' | 'failed';
    task_id: string | null;
    error: string | null;
    trained_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
    /** When the last training started (a failed one is started again at most once a minute). */
    attempted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  };
  voiceprint_speakers: {
    id: Generated<number>;
    department_id: number;
    name: string;
    /** The speaker's representation, opaque bytes of `method`; null until enrolled. */
    model: Uint8Array | null;
    method: string | null;
    /** The department's model version this representation belongs to. */
    model_version: number | null;
    recordings: ColumnType<number, number | undefined, number>;
    speech_seconds: ColumnType<number, number | undefined, number>;
    created_by: number;
    created_at: ColumnType<Date, never, never>;
    updated_at: ColumnType<Date, Date | undefined, Date>;
  };
  voiceprint_recordings: {
    id: Generated<number>;
    speaker_id: number;
    filename: string;
    /** The recording as 16 kHz mono 16-bit WAV (what speaker engines take); null for one enrolled before 002. */
    audio: Uint8Array | null;
    /** Before 002 only the MFCC features were kept (float32, frames x dims); null for newer recordings. */
    features: Uint8Array | null;
    frames: number | null;
    dims: number | null;
    speech_seconds: number;
    created_by: number;
    created_at: ColumnType<Date, never, never>;
  };
}

export const voiceprintMigrations: Migration<VoiceprintDatabase>[] = [
  {
    name: '001_speakers',
    async up(db) {
      await db.schema
        .createTable('voiceprint_departments')
        .addColumn('department_id', 'integer', (c) => c.primaryKey())
        .addColumn('ubm', 'bytea')
        .addColumn('components', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('dims', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('model_version', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('data_version', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('trained_version', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('idle').check(sql`status in ('idle', 'training', 'failed')`))
        .addColumn('task_id', 'text')
        .addColumn('error', 'text')
        .addColumn('trained_at', 'timestamptz')
        .execute();
      await db.schema
        .createTable('voiceprint_speakers')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('department_id', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('model', 'bytea')
        .addColumn('model_version', 'integer')
        .addColumn('recordings', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('speech_seconds', 'real', (c) => c.notNull().defaultTo(0))
        .addColumn('created_by', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('voiceprint_speakers_department').on('voiceprint_speakers').columns(['department_id', 'id']).execute();
      await sql`create unique index voiceprint_speakers_name on voiceprint_speakers (department_id, lower(name))`.execute(db);
      await db.schema
        .createTable('voiceprint_recordings')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('speaker_id', 'integer', (c) => c.notNull().references('voiceprint_speakers.id').onDelete('cascade'))
        .addColumn('filename', 'text', (c) => c.notNull())
        .addColumn('features', 'bytea', (c) => c.notNull())
        .addColumn('frames', 'integer', (c) => c.notNull())
        .addColumn('dims', 'integer', (c) => c.notNull())
        .addColumn('speech_seconds', 'real', (c) => c.notNull())
        .addColumn('created_by', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('voiceprint_recordings_speaker').on('voiceprint_recordings').columns(['speaker_id', 'id']).execute();
    },
  },
  {
    // Recordings kept as audio for the speaker engines; a department's models become opaque bytes of a
    // method. Models of 001 are the local engine's method: converted, they keep working with it.
    name: '002_engine_models',
    async up(typed) {
      // Columns of 001 that the tables no longer type: this migration speaks of them untyped.
      const raw = typed as Kysely<any>;
      await raw.schema.alterTable('voiceprint_recordings').addColumn('audio', 'bytea').execute();
      for (const c of ['features', 'frames', 'dims']) await raw.schema.alterTable('voiceprint_recordings').alterColumn(c, (col) => col.dropNotNull()).execute();
      await raw.schema.alterTable('voiceprint_speakers').addColumn('method', 'text').execute();
      await raw.updateTable('voiceprint_speakers').set({ method: LEGACY_METHOD }).where('model', 'is not', null).execute();
      for (const c of [['method', 'text'], ['background', 'bytea'], ['threshold', 'real'], ['attempted_at', 'timestamptz']] as const) {
        await raw.schema.alterTable('voiceprint_departments').addColumn(c[0], c[1]).execute();
      }
      const rows = await raw.selectFrom('voiceprint_departments').select(['department_id', 'ubm', 'components', 'dims']).where('ubm', 'is not', null).execute();
      for (const r of rows) {
        await raw.updateTable('voiceprint_departments').set({ method: LEGACY_METHOD, background: Buffer.from(legacyBackground(new Uint8Array(r.ubm), r.components, r.dims)) }).where('department_id', '=', r.department_id).execute();
      }
      for (const c of ['ubm', 'components', 'dims']) await raw.schema.alterTable('voiceprint_departments').dropColumn(c).execute();
    },
  },
];
