import { sql, type ColumnType, type Generated, type Kysely } from 'kysely';
import type { Migration } from '@linguaport/sdk/server';

/** The voiceprint area's own tables (namespace `voiceprint_`), typed for Kysely. */
export interface VoiceprintDatabase {
  /** A department's background model and the state of its training. */
  voiceprint_departments: {
    department_id: number;
    /** The background model (float32 weights, means, variances), null until the first training. */
    ubm: Uint8Array | null;
    components: number;
    dims: number;
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
  };
  voiceprint_speakers: {
    id: Generated<number>;
    department_id: number;
    name: string;
    /** The MAP-adapted means (float32, components x dims), null until adapted. */
    model: Uint8Array | null;
    /** The department's model version this speaker's means were adapted to. */
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
    /** Voiced frames' features (float32, frames x dims): what training reads again. */
    features: Uint8Array;
    frames: number;
    dims: number;
    speech_seconds: number;
    created_by: number;
    created_at: ColumnType<Date, never, never>;
  };
}

export const voiceprintMigrations: Migration[] = [
  {
    name: '001_speakers',
    async up(raw: Kysely<any>) {
      const db = raw as Kysely<VoiceprintDatabase>;
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
];
