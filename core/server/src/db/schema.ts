import type { Generated as KyselyGenerated } from 'kysely';

/**
 * The kernel's own tables as Kysely sees them, one interface per table, as the kernel's migrations
 * leave them (core/server/src/<area>/migrations.ts). Only the kernel queries these: plugins reach
 * the data through the SDK's typed services (ctx.users, ctx.organisation, ctx.usage, ...), which
 * scripts/test/kernel-tables.test.ts enforces. A migration that changes a table changes it here too
 * (core/server/test/schema.test.ts compares the two).
 */

/** A column the database fills when an insert leaves it out (a serial id, a default). */
export type Generated<T> = KyselyGenerated<T>;
/** jsonb: written as a JSON text or value, read back parsed. */
export type Json = unknown;

export interface DepartmentRolesTable {
  department_id: number;
  role_id: number;
}

export interface DepartmentsTable {
  id: Generated<number>;
  name: string;
  code: string;
  description: string | null;
  head_user_id: number | null;
  created_by: number | null;
  created_at: Generated<Date>;
  is_default: Generated<boolean>;
}

export interface DirectoryDomainsTable {
  id: Generated<number>;
  symbol: string;
  name: string;
  url: string;
  bind_dn: string | null;
  bind_password: string | null;
  base_dn: string;
  user_filter: Generated<string>;
  enabled: Generated<boolean>;
  env_hash: string | null;
}

export interface EngineNodesTable {
  id: Generated<number>;
  kind: string;
  container_name: string;
  ip: string | null;
  gpu_card: string | null;
  ssh_port: number | null;
  user_name: string | null;
  password_sealed: string | null;
  resource_path: string | null;
  config_path: string | null;
  incremental_support: Generated<boolean>;
  create_service: Generated<boolean>;
  authentication_file: string | null;
  library_address: string | null;
  model: string | null;
  base_url: string | null;
  api_key_sealed: string | null;
  languages: Generated<Json>;
  pairs: Generated<Json>;
  desired_state: Generated<string>;
  health: Generated<string>;
  last_error: string | null;
  last_checked_at: Date | null;
  created_at: Generated<Date>;
  config: Generated<Json>;
}

export interface EnginesTable {
  id: Generated<number>;
  name: string;
  image_name: string;
  source_language: string | null;
  target_language: string | null;
  domain: string | null;
  consumer: string | null;
  node_ids: Generated<Json>;
  expires_at: Date | null;
  enabled: Generated<boolean>;
  container_count: Generated<number>;
  licence: Json | null;
  language_abbreviations: Generated<Json>;
  created_at: Generated<Date>;
}

export interface KernelEventPayloadsTable {
  id: Generated<number>;
  body: string;
  created_at: Generated<Date>;
}

export interface KernelMigrationsTable {
  module: string;
  name: string;
  applied_at: Generated<Date>;
}

export interface LoginKnownAddressesTable {
  user_id: number;
  address: string;
  last_success_at: Date;
}

export interface LoginThrottleTable {
  scope: string;
  failures: Generated<number>;
  last_failure_at: Date;
  locked_until: Date | null;
}

export interface LtSuggestionsTable {
  id: Generated<number>;
  q: string;
  s: string;
  source: string;
  target: string;
  user_id: number | null;
  created_at: Generated<Date>;
}

export interface MessagesTable {
  id: Generated<number>;
  user_id: number;
  department_id: number | null;
  type: string;
  content: string;
  is_read: Generated<boolean>;
  created_at: Generated<Date>;
  content_zh: string | null;
  content_en: string | null;
}

export interface OperationLogTable {
  id: Generated<number>;
  module: string;
  message: string;
  operator_id: number | null;
  operator_name: string | null;
  method: string;
  url: string;
  outcome: string;
  code: number;
  ip: string | null;
  created_at: Generated<Date>;
  route: string | null;
  params: Json | null;
}

export interface OperationTitlesTable {
  route: string;
  name_zh: string;
  name_en: string;
}

export interface PermissionsTable {
  id: Generated<number>;
  parent_id: number | null;
  plugin_id: string | null;
  key: string;
  name_zh: string;
  name_en: string;
  type: number;
  path: string | null;
  icon: string | null;
  sort: Generated<number>;
  config_key: string | null;
  config_value: string | null;
  show_in_menu: Generated<boolean>;
  show_in_shortcut: Generated<boolean>;
  show_to_users: Generated<boolean>;
  shortcut_image: string | null;
  active: Generated<boolean>;
  admin: Generated<boolean>;
}

export interface PluginFailuresTable {
  id: Generated<number>;
  plugin_id: string;
  version: string;
  kind: string;
  message: string;
  user_id: number;
  created_at: Generated<Date>;
}

export interface PluginStateTable {
  id: string;
  source: string;
  type: string;
  enabled: boolean;
  published: boolean;
  current_version: string;
  previous_version: string | null;
  staged_version: string | null;
  file_name: string | null;
  description: string | null;
  publisher: string | null;
  signature_state: string;
  updated_at: Generated<Date>;
  created_at: Generated<Date>;
}

export interface PluginTrustedKeysTable {
  key_id: string;
  name: string;
  public_key: string;
  allow_server: Generated<boolean>;
  created_at: Generated<Date>;
}

export interface PublicKeysTable {
  id: Generated<number>;
  public_key: string;
  private_key_pem: string;
  created_at: Date;
  used_at: Date | null;
}

export interface RolePermissionsTable {
  role_id: number;
  permission_id: number;
}

export interface RolesTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  created_by: number | null;
  created_at: Generated<Date>;
  is_default: Generated<boolean>;
  is_super: Generated<boolean>;
  builtin: string | null;
  grants_pending: Generated<boolean>;
}

export interface SessionsTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  department_id: number | null;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  scope_path: string | null;
}

export interface SliderCaptchasTable {
  id: string;
  x: number;
  created_at: Date;
  attempted_at: Date | null;
  ticket_hash: string | null;
  ticket_used_at: Date | null;
}

export interface SsoLoginsTable {
  state: string;
  provider_id: number;
  code_verifier: string;
  nonce: string;
  created_at: Date;
  ticket_hash: string | null;
  user_id: number | null;
  outcome: string | null;
  completed_at: Date | null;
  collected_at: Date | null;
  redirect_uri: Generated<string>;
}

export interface SsoProvidersTable {
  id: Generated<number>;
  name: string;
  issuer: string;
  client_id: string;
  client_secret: string | null;
  redirect_uri: Generated<string>;
  scopes: Generated<string>;
  enabled: Generated<boolean>;
  env_hash: string | null;
}

export interface SystemConfigTable {
  config_key: string;
  config_value: string | null;
  config_name: string | null;
  description: string | null;
  name_zh: string | null;
  name_en: string | null;
  config_group: Generated<string>;
  value_type: Generated<string>;
  width: number | null;
  height: number | null;
  updated_at: Date | null;
}

export interface TasksTable {
  id: string;
  plugin_id: string;
  name: string;
  title: string | null;
  owner_id: number | null;
  state: string;
  priority: Generated<number>;
  input: Json;
  checkpoint: Json | null;
  output: Json | null;
  error: string | null;
  progress_done: Generated<number>;
  progress_total: Generated<number>;
  progress_message: string | null;
  attempt: Generated<number>;
  cancel_requested: Generated<boolean>;
  instance: string | null;
  heartbeat_at: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface TrustedLicenceKeysTable {
  id: Generated<number>;
  name: string;
  public_key: string;
  created_at: Generated<Date>;
}

export interface UsageRecordsTable {
  user_id: number;
  day: Date;
  channel: string;
  characters: Generated<number>;
  documents: Generated<number>;
  last_used_at: Date;
}

export interface UserDepartmentRolesTable {
  user_id: number;
  department_id: number;
  role_id: number;
}

export interface UsersTable {
  id: Generated<number>;
  username: string;
  real_name: string | null;
  password_hash: string;
  user_type: Generated<number>;
  status: Generated<string>;
  enabled: Generated<boolean>;
  email: string | null;
  phone: string | null;
  employee_no: string | null;
  expires_at: Date | null;
  priority: Generated<number>;
  memo: string | null;
  api_key: string | null;
  api_key_updated_at: Date | null;
  need_password_change: Generated<boolean>;
  password_changed_at: Date | null;
  created_by: number | null;
  created_at: Generated<Date>;
  last_login_at: Date | null;
  locale: string | null;
  api_key_hash: string | null;
  api_key_sealed: string | null;
  external_source: string | null;
  external_subject: string | null;
  api_key_last_used_at: Date | null;
  api_key_scopes: Generated<string>;
}

export interface KernelTables {
  department_roles: DepartmentRolesTable;
  departments: DepartmentsTable;
  directory_domains: DirectoryDomainsTable;
  engine_nodes: EngineNodesTable;
  engines: EnginesTable;
  kernel_event_payloads: KernelEventPayloadsTable;
  kernel_migrations: KernelMigrationsTable;
  login_known_addresses: LoginKnownAddressesTable;
  login_throttle: LoginThrottleTable;
  lt_suggestions: LtSuggestionsTable;
  messages: MessagesTable;
  operation_log: OperationLogTable;
  operation_titles: OperationTitlesTable;
  permissions: PermissionsTable;
  plugin_failures: PluginFailuresTable;
  plugin_state: PluginStateTable;
  plugin_trusted_keys: PluginTrustedKeysTable;
  public_keys: PublicKeysTable;
  role_permissions: RolePermissionsTable;
  roles: RolesTable;
  sessions: SessionsTable;
  slider_captchas: SliderCaptchasTable;
  sso_logins: SsoLoginsTable;
  sso_providers: SsoProvidersTable;
  system_config: SystemConfigTable;
  tasks: TasksTable;
  trusted_licence_keys: TrustedLicenceKeysTable;
  usage_records: UsageRecordsTable;
  user_department_roles: UserDepartmentRolesTable;
  users: UsersTable;
}
