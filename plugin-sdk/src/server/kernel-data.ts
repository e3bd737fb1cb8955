import type { Locale } from '../shared/manifest.js';

/**
 * The kernel's records that areas show, as typed services of the context (`ctx.usage`,
 * `ctx.operationLog`), so no plugin reads `usage_records`, `operation_log` or `users` itself and the
 * kernel may change those tables (scripts/test/kernel-tables.test.ts holds plugins to it). The routes
 * that call them still declare their permission; the kernel enforces it before the handler runs.
 */

/** Days are ISO dates (`2026-05-01`), both ends included; a side left out is open. */
export interface UsagePeriod {
  from?: string;
  to?: string;
}

/** Counts per usage channel (`text`, `api`, `document`, and any a plugin counts on): characters and documents. */
export interface UsageTotals {
  characters: Record<string, number>;
  documents: Record<string, number>;
}

/** One user's usage over a period. `username` is null for a user deleted since. */
export interface UserUsage extends UsageTotals {
  userId: number;
  username: string | null;
  realName: string | null;
  lastUsedAt: Date;
}

export interface UsageByUserQuery extends UsagePeriod {
  /** Users whose account or real name contains it (any case). */
  text?: string;
  /** `recent`: last used first (then by id); `most`: most characters first. */
  order: 'recent' | 'most';
  /** Also users deleted since (their usage stays); default false. */
  deletedUsers?: boolean;
  offset?: number;
  /** All users when left out. */
  limit?: number;
}

/** The usage ledger (`ctx.usage`), read-only: what the translation service counted per user, day and channel. */
export interface UsageRecords {
  /** Over all users, or one. */
  totals(query: UsagePeriod & { userId?: number }): Promise<UsageTotals>;
  /** Characters per day and channel, by day. */
  daily(query: UsagePeriod): Promise<{ day: string; channel: string; characters: number }[]>;
  /** Per user, with the number of users that match (for paging). */
  byUser(query: UsageByUserQuery): Promise<{ total: number; users: UserUsage[] }>;
}

export interface OperationLogFilter {
  /** As stored: a plugin id, `auth`, or a kernel area. */
  module?: string;
  /** Part of the operator's user name (any case). */
  operator?: string;
  outcome?: 'success' | 'failure';
  from?: Date;
  to?: Date;
}

/** A line of the operation log as a reader reads it. */
export interface OperationLogEntry {
  id: number;
  module: string;
  /** The module's name in the reader's language. */
  moduleName: string;
  /** The operation in the reader's language (older lines: as written, in English). */
  message: string;
  operatorId: number | null;
  operatorName: string | null;
  method: string;
  url: string;
  outcome: 'success' | 'failure';
  code: number;
  ip: string | null;
  createdAt: Date;
}

/** The kernel's operation log (`ctx.operationLog`), read-only: the kernel writes a line for every mutating call. */
export interface OperationLogReader {
  /** Newest first. */
  list(query: OperationLogFilter & { offset?: number; limit: number }, locale: Locale): Promise<OperationLogEntry[]>;
  count(query: OperationLogFilter): Promise<number>;
  /** The modules that have lines, by id, with their names in the reader's language. */
  modules(locale: Locale): Promise<{ module: string; name: string }[]>;
}

/** A role as the role screens show it. Names of the built-in roles are stored seeded (`seededName` reads them). */
export interface RoleRecord {
  id: number;
  name: string;
  description: string | null;
  creatorName: string | null;
  createdAt: Date;
  /** Users holding it in any department. */
  userCount: number;
  isSuper: boolean;
  isDefault: boolean;
  /** The built-in role's key (`translator`, ...), null for a role an administrator made. */
  builtin: string | null;
}

/** The kernel's roles (`ctx.organisation.roles`); grants stay the kernel's own routes (`/role/permissions/{roleId}`). */
export interface RoleAdmin {
  /** Every role, by id. */
  all(): Promise<RoleRecord[]>;
  /** A page by id, optionally those whose name contains `name` (any case, taken literally). */
  page(query: { name?: string; offset: number; limit: number }): Promise<{ total: number; roles: RoleRecord[] }>;
  byIds(ids: readonly number[]): Promise<RoleRecord[]>;
  /** Whether a role other than `exceptId` has this name, ignoring case. */
  nameTaken(name: string, exceptId?: number | null): Promise<boolean>;
  create(role: { name: string; description: string | null; createdBy: number | null }): Promise<number>;
  /** False for an unknown id. */
  update(id: number, role: { name: string; description: string | null }): Promise<boolean>;
  /** The roles among `ids` that users hold, with how many users hold each. */
  holders(ids: readonly number[]): Promise<{ name: string; users: number }[]>;
  /**
   * Deletes the roles among `ids` that are neither built in nor held by anyone (the caller explains a
   * refusal first, in the reader's language); returns how many went.
   */
  remove(ids: readonly number[]): Promise<number>;
}

/** A department as the department screens show it. */
export interface DepartmentRecord {
  id: number;
  name: string;
  code: string;
  description: string | null;
  headUserId: number | null;
  headName: string | null;
  creatorName: string | null;
  createdAt: Date;
  /** The department imports and registration use; never deleted. */
  isDefault: boolean;
  /** Users holding a role in it. */
  userCount: number;
  /** The roles assigned to it, by id. */
  roles: { id: number; name: string }[];
}

export interface DepartmentInput {
  name: string;
  code: string;
  description: string | null;
  headUserId: number | null;
  roleIds: readonly number[];
}

/** The kernel's departments (`ctx.organisation.departments`). */
export interface DepartmentAdmin {
  /** Every department, by id. */
  all(): Promise<DepartmentRecord[]>;
  /** A page by id, optionally those whose name and code contain the texts (any case, taken literally). */
  page(query: { name?: string; code?: string; offset: number; limit: number }): Promise<{ total: number; departments: DepartmentRecord[] }>;
  byIds(ids: readonly number[]): Promise<DepartmentRecord[]>;
  /** Whether a department other than `exceptId` has this code, ignoring case. */
  codeTaken(code: string, exceptId?: number | null): Promise<boolean>;
  /** Creates it with its roles, in one transaction. */
  create(department: DepartmentInput & { createdBy: number | null }): Promise<number>;
  /** Replaces its fields and roles, in one transaction; false for an unknown id. */
  update(id: number, department: DepartmentInput): Promise<boolean>;
  /** The departments among `ids` that users belong to, with how many users each. */
  holders(ids: readonly number[]): Promise<{ name: string; users: number }[]>;
  /** Deletes those among `ids` that are neither the default nor have users; returns how many went. */
  remove(ids: readonly number[]): Promise<number>;
}

/** The organisation the kernel keeps (`ctx.organisation`): roles and departments. */
export interface Organisation {
  readonly roles: RoleAdmin;
  readonly departments: DepartmentAdmin;
}

/** An engine as the kernel stores it (column names as stored; jsonb parsed). */
export interface EngineRecord {
  id: number;
  name: string;
  /** Adapter kind and model, `openai:qwen2.5-7b`. */
  image_name: string;
  source_language: string | null;
  target_language: string | null;
  domain: string | null;
  consumer: string | null;
  node_ids: number[];
  expires_at: Date | null;
  enabled: boolean;
  container_count: number;
  licence: Record<string, unknown> | null;
  language_abbreviations: Record<string, string>;
  created_at: Date;
}

/** What an engine's add or edit sets (left out: unchanged, or the column's default). */
export type EngineWrite = Partial<Omit<EngineRecord, 'id' | 'created_at'>>;

/** A node as the kernel stores it; secrets only sealed. */
export interface EngineNodeRecord {
  id: number;
  kind: string;
  container_name: string;
  ip: string | null;
  gpu_card: string | null;
  ssh_port: number | null;
  user_name: string | null;
  password_sealed: string | null;
  resource_path: string | null;
  config_path: string | null;
  incremental_support: boolean;
  create_service: boolean;
  authentication_file: string | null;
  library_address: string | null;
  model: string | null;
  base_url: string | null;
  api_key_sealed: string | null;
  languages: string[];
  pairs: { source: string; target: string }[];
  desired_state: string;
  health: string;
  last_error: string | null;
  last_checked_at: Date | null;
  created_at: Date;
  config: Record<string, unknown>;
}

export type EngineNodeWrite = Pick<EngineNodeRecord, 'kind' | 'container_name' | 'authentication_file' | 'config'> &
  Partial<Pick<EngineNodeRecord, 'ip' | 'gpu_card' | 'ssh_port' | 'user_name' | 'password_sealed' | 'resource_path' | 'config_path' | 'incremental_support' | 'create_service' | 'library_address'>>;

/**
 * The translation service's engines, nodes and trusted licence keys (`ctx.engineAdmin`), for the
 * engine-management area. After a change, `ctx.engines.nodes.reload()` makes the service use it.
 */
export interface EngineAdmin {
  engines: {
    /** A page by id, optionally those whose name contains `name` (any case, taken literally). */
    page(query: { name?: string; offset: number; limit: number }): Promise<{ total: number; engines: EngineRecord[] }>;
    get(id: number): Promise<EngineRecord | null>;
    create(engine: EngineWrite): Promise<EngineRecord>;
    update(id: number, engine: EngineWrite): Promise<void>;
    remove(id: number): Promise<void>;
    /** Sets the engine's model (`kind:model`) and the model of its nodes whose adapter has one. */
    setModel(id: number, model: string): Promise<void>;
  };
  nodes: {
    get(id: number): Promise<EngineNodeRecord | null>;
    /** By id; every node when `ids` is left out. */
    list(query?: { ids?: readonly number[]; kinds?: readonly string[] }): Promise<EngineNodeRecord[]>;
    /** Adds the node, and to the engine's nodes when `engineId` is given. */
    create(node: EngineNodeWrite, engineId?: number): Promise<EngineNodeRecord>;
    /** Deletes the node and takes it out of every engine's nodes. */
    remove(id: number): Promise<void>;
  };
  trustedKeys: {
    list(): Promise<{ id: number; name: string; publicKey: string; createdAt: Date }[]>;
    /** Null when the key is trusted already. */
    add(key: { name: string; publicKey: string }): Promise<number | null>;
    remove(id: number): Promise<void>;
  };
}

/**
 * Where translation domains are used (`ctx.domains`): each area that stores domain codes says how
 * many of its records use a code, so the domain area asks the areas instead of scanning tables.
 */
export interface DomainUsage {
  /**
   * Declares that this plugin stores domain codes in `records` (a name for the message, the table's
   * by convention: `term_entries`); `count` says how many use a code. Goes when the plugin stops.
   */
  register(records: string, count: (code: string) => Promise<number>): void;
  /** Every declared kind of record that uses the code, with how many, by name. */
  of(code: string): Promise<{ table: string; rows: number }[]>;
}
