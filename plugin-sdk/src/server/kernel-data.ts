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

/** A user as the user screens list them. Role and department names as stored (`seededName` reads the built-in ones). */
export interface UserRecord {
  id: number;
  username: string;
  realName: string | null;
  email: string | null;
  phone: string | null;
  employeeNo: string | null;
  status: 'checked' | 'unchecked';
  enabled: boolean;
  userType: number;
  priority: number;
  memo: string | null;
  expiresAt: Date | null;
  createdAt: Date;
  lastLoginAt: Date | null;
  creatorName: string | null;
  /** By id; a user holds each of its roles in each of its departments. */
  departments: { id: number; name: string }[];
  roles: { id: number; name: string }[];
}

export type UserSortColumn = 'username' | 'realName' | 'createdAt' | 'priority' | 'expiresAt' | 'lastLoginAt';

export interface UserPageQuery {
  /** Parts of the account and real names (any case, taken literally). */
  username?: string;
  realName?: string;
  /** Users holding a role in this department / holding this role. */
  departmentId?: number;
  roleId?: number;
  status?: 'checked' | 'unchecked';
  enabled?: boolean;
  /** Then by id in the same direction; newest id first when left out. */
  sortBy?: UserSortColumn;
  sortOrder?: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** What adding or editing a user sets (`priority` left out: unchanged on edit, the lowest on add). */
export interface UserFields {
  username: string;
  realName: string | null;
  email: string | null;
  phone: string | null;
  employeeNo: string | null;
  expiresAt: Date | null;
  priority?: number;
  memo: string | null;
}

/** A new account: the password already hashed (`ctx.auth.hashPassword`). */
export interface NewUser extends UserFields {
  passwordHash: string;
  createdBy: number | null;
  /** Must change the password at first sign-in (imports); default false. */
  needPasswordChange?: boolean;
}

/** A user to ask about accounts: a super administrator, or the head of a department. */
export interface AccountContact {
  id: number;
  username: string;
  realName: string | null;
  email: string | null;
  phone: string | null;
  kind: 'super' | 'head';
}

/**
 * The kernel's user accounts (`ctx.organisation.users`), for the user area: accounts and their
 * memberships (a user holds each role given in each department given). Added accounts are checked.
 */
export interface UserAdmin {
  /** A page of users, with how many match. */
  page(query: UserPageQuery): Promise<{ total: number; users: UserRecord[] }>;
  /** Enabled users by account name; only those holding the super administrator role, or only checked ones, when asked. */
  enabled(filter?: { superAdmins?: boolean; checked?: boolean }): Promise<{ id: number; username: string; realName: string | null }[]>;
  /** Whom to ask about an account: the enabled super administrators and the head of the department (when enabled). */
  contacts(departmentId: number | null): Promise<AccountContact[]>;
  exists(id: number): Promise<boolean>;
  /** Whether a user other than `exceptId` has this account name, ignoring case. */
  nameTaken(username: string, exceptId?: number | null): Promise<boolean>;
  /** The names among `usernames` that accounts have, lower-cased. */
  takenNames(usernames: readonly string[]): Promise<Set<string>>;
  /** The users among `ids` holding the super administrator role. */
  superAdmins(ids: readonly number[]): Promise<number[]>;
  /** Creates the account with its memberships, in one transaction; returns its id. */
  create(user: NewUser, memberships: { departmentIds: readonly number[]; roleIds: readonly number[] }): Promise<number>;
  /** Creates the accounts, each holding `roleId` in `departmentId`, in one transaction; returns how many. */
  createMany(users: readonly NewUser[], membership: { departmentId: number; roleId: number }): Promise<number>;
  /** Replaces the fields and memberships, in one transaction; false for an unknown id. */
  update(id: number, user: UserFields, memberships: { departmentIds: readonly number[]; roleIds: readonly number[] }): Promise<boolean>;
  /** Returns how many changed. */
  setEnabled(ids: readonly number[], enabled: boolean): Promise<number>;
  /** Unchecked to checked. */
  approve(id: number): Promise<'approved' | 'already' | 'unknown'>;
  /** The users of these ids, or those holding a role in these departments; returns how many. */
  setPriority(target: { userIds: readonly number[] } | { departmentIds: readonly number[] }, priority: number): Promise<number>;
  /** Deletes the accounts; memberships, sessions and API keys go with them. Returns how many went. */
  remove(ids: readonly number[]): Promise<number>;
}

/** The organisation the kernel keeps (`ctx.organisation`): users, roles and departments. */
export interface Organisation {
  readonly users: UserAdmin;
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
