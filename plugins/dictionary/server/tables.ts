import type { ColumnType, Generated } from 'kysely';

/** The dictionary area's own tables (namespace `dict_`), typed for Kysely; created by migration 001 (index.ts). */
export interface DictionaryDatabase {
  dict_types: {
    id: Generated<number>;
    name: string;
    code: string;
    description: Generated<string>;
    enabled: Generated<boolean>;
    created_by: number | null;
    created_at: ColumnType<Date, never, never>;
  };
  dict_entries: {
    id: Generated<number>;
    type_id: number;
    name: string;
    code: string;
    value: string;
    sort: number;
    description: Generated<string>;
    created_at: ColumnType<Date, never, never>;
  };
}
