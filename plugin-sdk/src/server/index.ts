import type { UsageRecords, OperationLogReader, Organisation, EngineAdmin, DomainUsage } from './kernel-data.js';
import type { Kysely } from 'kysely';
import type { ZodType } from 'zod';
import type { Observable } from 'rxjs';
import type { ApiKeyScope } from '../shared/api-keys.js';
import type { FormatRegistry } from '../shared/file-format.js';
import type { TaskService } from './tasks.js';
import type { PluginServices } from './services.js';
import type { EngineChoice, TranslateSegmentsRequest, TranslateSegmentsResult, TranslationPipeline, TranslationRequestBase } from './pipeline.js';
import type { AnyEngineAdapterDefinition, EngineAdapterDefinition, EngineAdapterKind } from './engines.js';
import type { CapabilityService, EngineCapabilityDefinition, EngineCapabilityInfo } from './capabilities.js';
import type { SpeechService } from './speech.js';
import type { OcrService } from './ocr.js';
import type { SpeakerService } from './speaker.js';
import type { SocketDefinition } from './sockets.js';

/**
 * The server half of the SDK. A plugin's server entry default-exports `defineServerPlugin({...})`;
 * the kernel calls `setup(ctx)` with a context scoped to that plugin (Fastify-style
 * encapsulation: no module-level singletons, no import-time side effects).
 */

export { Codes, type Envelope } from '../shared/envelope.js';
export { requestLocale, say, idList, pageQuery, pageOffset, pageOf, pageSchema, timestampSchema, localizedTextSchema, taskSchema, like, iso, takenIgnoringCase, personName } from './helpers.js';

/** A message in both interface languages; the kernel answers the one of the request. */
export type LocalizedText = Readonly<Record<'zh-CN' | 'en-US', string>>;

/**
 * Throw from a handler to answer with this code and message (and its HTTP status). Give the message in
 * both languages (`{ 'zh-CN': ..., 'en-US': ... }`) where no request is at hand to `say` it: the kernel
 * answers the request's language; `message` holds the English for logs.
 */
export class ApiError extends Error {
  public readonly messages: LocalizedText | null;
  constructor(
    public readonly code: number,
    message: string | LocalizedText,
    public readonly data: unknown = null,
  ) {
    super(typeof message === 'string' ? message : message['en-US']);
    this.messages = typeof message === 'string' ? null : message;
    this.name = 'ApiError';
  }
}

/**
 * Who may call a route. Every route must say: `'public'`, `'signed-in'` (any signed-in user,
 * for their own data), `'member'` (a full console session of a real account: the caller's own
 * account settings and the user directory; not a guest, a quick-access page or an API key), or a
 * permission key the plugin declared in its manifest.
 */
export type RouteAccess = 'public' | 'signed-in' | 'member' | { permission: string } | { anyPermission: string[] };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'OPTIONS';

export interface Caller {
  userId: number;
  username: string;
  departmentId: number | null;
  isSuperAdmin: boolean;
  /** Permission keys granted through the caller's roles in the chosen department. */
  permissions: ReadonlySet<string>;
  /**
   * How the caller signed this request: a console session, the shared guest account, a
   * quick-access link (one page) or an API key.
   */
  via: 'session' | 'guest' | 'quick-access' | 'api-key';
  /** For an API key: the scopes its owner granted (routes naming one of them are reachable). */
  apiKeyScopes?: ReadonlySet<ApiKeyScope>;
}

export interface RequestContext<Q = unknown, B = unknown, P = unknown> {
  query: Q;
  body: B;
  params: P;
  headers: Record<string, string | string[] | undefined>;
  /** The signed-in caller; null only on public routes. */
  caller: Caller | null;
  ip: string;
  /** For uploads: the raw request, to read multipart parts. */
  raw: unknown;
  /** Set a response header (downloads). */
  header(name: string, value: string): void;
}

export interface RouteDefinition<Q = any, B = any, P = any> {
  method: HttpMethod;
  /** Path under `/api`, e.g. `/user/add`. */
  url: string;
  access: RouteAccess;
  /** The API-key scope that reaches this route; without one, API keys are refused (403). */
  apiKey?: ApiKeyScope;
  /**
   * A GET of a file that a page element plays or shows itself (`<video src>`, `<audio src>`), which
   * cannot send the Jwt header: the console's session cookie is accepted in its place, so the browser
   * asks for byte ranges as it plays and seeks. Only for GET routes that change nothing.
   */
  sessionCookie?: boolean;
  /** Operation-log module name (default: the plugin id); mutating routes are logged by the kernel. */
  module?: string;
  /**
   * The operation's English title in the operation log (e.g. `Add user`); method and route are logged too.
   * Its Chinese title: the plugin's zh-CN.json, `<namespace>.operations["POST /user/add"]` (a test requires one).
   */
  summary?: string;
  schema?: { query?: ZodType<Q>; body?: ZodType<B>; params?: ZodType<P> };
  /**
   * The route takes files in a multipart body. Without it the kernel refuses file parts (400) and
   * reads form fields only, within a small limit.
   */
  upload?: RouteUpload;
  /** Record the call in the operation log; default: true for POST, PUT, DELETE and PATCH. */
  log?: boolean;
  /** What the OpenAPI document (`/api/openapi.json`) says of the answer: the shape of `data`, the codes. */
  response?: RouteResponse;
  /** Return the envelope's data, or a `RawReply` for files and streams. */
  handler(req: RequestContext<Q, B, P>): Promise<unknown> | unknown;
}

/**
 * The documented answer of a route. The request side comes from `schema`; this is the other half, so
 * the zod schemas stay the one source of validation, types and documentation.
 */
export interface RouteResponse {
  /** The schema of the envelope's `data` (of the whole body when `envelope` is false). */
  data?: ZodType;
  /** False for answers that are not the envelope: files, streams, LibreTranslate's shapes. */
  envelope?: boolean;
  /** The content type of an answer that is not the envelope (`application/zip`). */
  contentType?: string;
  /**
   * Codes of the error catalogue (`Codes`) the call may answer besides those its declaration implies
   * (400 for a schema, 403 and 601 for an access other than public, 413 for an upload): 404, 409, 429,
   * 503, 3027 and the like.
   */
  errors?: number[];
}

/**
 * A route's files: each streams to a temporary file on disk while the kernel counts the bytes, and
 * a body whose files pass `maxBytes` (all together) is refused with HTTP 413. The handler's body
 * holds `{filename, mimetype, size, path, data}` per file; the temporary file is removed when the call ends.
 */
export interface RouteUpload {
  maxBytes: number;
}

// Files with byte ranges (206, 416, HEAD): media that plays and seeks as it downloads.
export { fileReply, parseRange, type ByteRange, type FileReplyOptions } from './ranges.js';
export { mediaJobKit, attachmentDisposition, uploadedMedia, type MediaJobKit, type MediaJobKitOptions, type MediaJobColumns, type MediaJobMessages, type MediaJobState } from './media-jobs.js';

/** A handler may return this to send bytes instead of the envelope. */
export interface RawReply {
  raw: true;
  status?: number;
  contentType: string;
  body: Buffer | string | NodeJS.ReadableStream;
  headers?: Record<string, string>;
}

/** `DB`: the plugin's tables (as they are once every migration ran), for the data a migration moves. */
export interface Migration<DB = any> {
  /** Ordered, unique within the plugin: `001_create_terms`. */
  name: string;
  up(db: Kysely<DB>): Promise<void>;
}

export interface Logger {
  debug(msg: string, extra?: object): void;
  info(msg: string, extra?: object): void;
  warn(msg: string, extra?: object): void;
  error(msg: string, extra?: object): void;
}

export interface JobOptions {
  /** Retries on failure before the job is failed. */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** A job with the same singleton key is not queued twice while one is waiting. */
  singletonKey?: string;
  startAfterSeconds?: number;
  priority?: number;
}

export interface Job<T = unknown> {
  id: string;
  name: string;
  data: T;
}

/** The durable job queue: accepted work survives a server restart. Names are scoped to the plugin. */
export interface JobQueue {
  send<T extends object>(name: string, data: T, options?: JobOptions): Promise<string>;
  work<T extends object>(name: string, handler: (job: Job<T>) => Promise<unknown>, options?: { batchSize?: number; concurrency?: number }): Promise<void>;
  getJob(name: string, id: string): Promise<{ id: string; state: string; output: unknown } | null>;
  cancel(name: string, id: string): Promise<void>;
}

export interface DomainEvent<T = unknown> {
  /** `area.thing.happened`, e.g. `message.created`. */
  type: string;
  payload: T;
  /** Who should receive it over the WebSocket; all signed-in users when absent. */
  audience?: { userIds?: number[]; permission?: string };
}

/** Domain events, pushed to the console over the WebSocket and across server instances. */
export interface EventBus {
  publish<T>(event: DomainEvent<T>): Promise<void>;
  events(type?: string): Observable<DomainEvent>;
}

export interface StoredFile {
  /** Storage key, relative to the plugin's folder. */
  key: string;
  size: number;
  sha256: string;
}

/** Files under `DATA_DIR/files/<plugin id>/`. Keys never escape that folder. */
export interface FileStorage {
  put(key: string, data: Buffer | NodeJS.ReadableStream): Promise<StoredFile>;
  get(key: string): Promise<Buffer>;
  stream(key: string): NodeJS.ReadableStream;
  exists(key: string): Promise<boolean>;
  remove(key: string): Promise<void>;
  path(key: string): string;
}

type Headers = Record<string, string | string[] | undefined>;

export interface AuthService {
  /** True when the caller holds the key (super administrators hold every key). */
  can(caller: Caller | null, permission: string): boolean;
  hashPassword(plain: string): Promise<string>;
  verifyPassword(plain: string, hash: string): Promise<boolean>;
  /**
   * Refuses (ApiError 403) roles and departments the caller may not grant: a caller grants only
   * roles whose every permission it holds, in departments it belongs to; the super administrator
   * role only a super administrator grants. Every route that grants roles asks here.
   */
  assertMayGrant(caller: Caller | null, grant: { roleIds: number[]; departmentIds: number[] }, headers: Headers): Promise<void>;
  /** Refuses (403) changing a user who holds what the caller lacks (a super administrator above all). */
  assertMayManage(caller: Caller | null, userIds: number[], headers: Headers): Promise<void>;
  /**
   * Sets a user's password: the user's own, or another's (the route checks its permission; the
   * change is recorded in the operation log). The user's other sessions end.
   */
  setPassword(caller: Caller, userId: number, plain: string, origin: { ip: string; method: string; url: string }): Promise<void>;
  /** Ends the users' open sessions (disabled accounts) and closes their sockets. */
  endSessions(userIds: number[]): Promise<void>;
}

/** A user's place in the organisation, as areas that share by department need it. */
export interface UserMembership {
  userId: number;
  /** The departments the user holds a role in, lowest id first (the first is their home department). */
  departmentIds: number[];
  /** True when a role of theirs is the super administrator's. */
  isSuperAdmin: boolean;
}

/** A user as lists and pickers show them. */
export interface UserName {
  id: number;
  username: string;
  realName: string | null;
}

/** The kernel's user records, read-only, for plugins (`ctx.users`). */
export interface UserDirectory {
  /** Null for an unknown user id. */
  membership(userId: number): Promise<UserMembership | null>;
  /** Names of these users; unknown ids are left out. */
  names(userIds: readonly number[]): Promise<Map<number, UserName>>;
  /** Enabled users whose account or real name contains `text` (any case), by account name, at most `limit` (20). */
  find(text: string, limit?: number): Promise<UserName[]>;
  /** A page of users (disabled ones too), by id, optionally those whose account or real name contains `text`. */
  list(query: { text?: string; offset: number; limit: number }): Promise<{ total: number; users: UserName[] }>;
  /** The user's file-translation priority (higher runs first), or null for an unknown user. */
  priority(userId: number): Promise<number | null>;
  /** A page of users (by id) with the state of their API key, never the key: for the API-key administration. */
  apiKeys(query: { text?: string; hasKey?: boolean; offset: number; limit: number }): Promise<{ total: number; users: UserApiKeyState[] }>;
}

/** Whether a user has an API key, when it was last reset and last used. */
export interface UserApiKeyState extends UserName {
  hasKey: boolean;
  updatedAt: Date | null;
  lastUsedAt: Date | null;
}

/** The system configuration (`/systemConfig/*`) as plugins see it: values are strings, as stored. */
export interface SystemSettings {
  /** The value of an existing key, or null when the key does not exist or has no value. */
  get(key: string): Promise<string | null>;
  /** Changes an existing key (an unknown key throws ApiError 400); publishes `systemConfig.changed`. */
  set(key: string, value: string): Promise<void>;
}

/**
 * A message type: the kernel's (`alert`, and spec 02's `proofreading` and `cat` until their areas
 * exist) or one the sending plugin declares under `messageTypes` in its manifest.
 */
export type MessageType = string;

/** The message centre (`/messageRemind/*`): stored per user and pushed live as `message.created`. */
export interface MessageCenter {
  /**
   * `content` in both languages is stored as both and read in the reader's language (a message is
   * never "中文 / English" cut to fit); a plain string is user text (a reply, a quote) shown as written.
   */
  send(message: { userIds: number[]; type: MessageType; content: string | LocalizedText; departmentId?: number | null }): Promise<void>;
}

/**
 * What the kernel gives a plugin. `DB` is the plugin's own tables (`defineServerPlugin<TermDatabase>`),
 * so `ctx.db` queries are typed against them; the kernel's data comes through the typed services below.
 */
export interface ServerPluginContext<DB = any> {
  readonly pluginId: string;
  /** This plugin's own configuration (from `DATA_DIR/config/<id>.json` and the environment). */
  readonly config: Readonly<Record<string, unknown>>;
  readonly logger: Logger;
  /** The database, typed to the plugin's own tables (`DB`, its namespace). */
  readonly db: Kysely<DB>;
  readonly jobs: JobQueue;
  readonly bus: EventBus;
  readonly storage: FileStorage;
  readonly auth: AuthService;
  /** Who users are, for areas that store user ids: departments, names, priority (never the kernel's tables directly). */
  readonly users: UserDirectory;
  /** The usage ledger, read-only: characters and documents per user, day and channel. */
  readonly usage: UsageRecords;
  /** The kernel's operation log, read-only, in the reader's language. */
  readonly operationLog: OperationLogReader;
  /** The kernel's roles and departments, for the areas that administer them. */
  readonly organisation: Organisation;
  /** The translation service's engines, nodes and trusted licence keys, for the engine-management area. */
  readonly engineAdmin: EngineAdmin;
  /** Where translation domains are used: an area storing domain codes registers a counter here. */
  readonly domains: DomainUsage;
  /** The translation service: engines, nodes, usage accounting. */
  readonly engines: EngineService;
  readonly settings: SystemSettings;
  readonly messages: MessageCenter;
  /** Hooks into every translation (memory matches, terms, QA, write-back): see pipeline.ts for the stages. */
  readonly pipeline: TranslationPipeline;
  /** Typed services of other plugins, as the manifest's `provides` and `consumes` declare them. */
  readonly services: PluginServices;
  /** Long work: define a task once, start it, follow and cancel it (see the SDK README). */
  readonly tasks: TaskService;
  /** The file formats the platform reads and writes; a plugin registers its own here. */
  readonly formats: FormatRegistry;
  /** Register an API route; its access must be declared (public, signed-in or a declared key). */
  route<Q = any, B = any, P = any>(definition: RouteDefinition<Q, B, P>): void;
  /**
   * Accept WebSockets on a path of the plugin's own, authenticated as the kernel's event socket is (see
   * sockets.ts). Built-in plugins only: declare sockets in `setup` (not after start-up).
   */
  socket(definition: SocketDefinition): void;
  /** Run when the server stops. */
  onClose(fn: () => Promise<void> | void): void;
}

export interface ServerPlugin<DB = any> {
  migrations?: Migration<DB>[];
  setup(ctx: ServerPluginContext<DB>): Promise<void> | void;
}

/** `defineServerPlugin<MyTables>({...})`: `ctx.db` in `setup` is `Kysely<MyTables>` (the plugin's tables, typed in `server/tables.ts`). */
export function defineServerPlugin<DB = any>(plugin: ServerPlugin<DB>): ServerPlugin {
  return plugin as ServerPlugin;
}

/** A direction an engine serves, in platform language codes (`en`, `es`, `zh-CN`). */
export interface EngineLanguage {
  code: string;
  /** Codes this language translates into through an enabled, healthy engine. */
  targets: string[];
}

export interface DetectedLanguage {
  /**
   * The language of the text among every language the detector knows (about 60), whether or not an
   * engine takes it: the engines' platform code when one does (`zh-CN`), else its ISO 639-1 code (`de`);
   * `unknown` when the text is too short or the detector unsure.
   */
  language: string;
  /** 0..1. */
  confidence: number;
  /** Whether an enabled, healthy engine translates from it. */
  translatable: boolean;
  /** The codes it translates into (empty when not translatable). */
  targets: string[];
}

/** The 400 a translation with `source: auto` answers when no engine takes the detected language: its `data`. */
export interface NoEngineForSource {
  reason: 'noEngineForSource';
  /** The detected language's code. */
  language: string;
}

/**
 * Which way a translation came in; usage records count characters per channel. The kernel's are
 * `text` and `api`; a plugin declares others under `usageChannels` in its manifest (`document`).
 */
export type TranslationChannel = string;

export interface EngineTranslateRequest extends TranslationRequestBase {
  text: string;
}

export interface EngineTranslateResult {
  text: string;
  /** The source language used (the detected one when `auto`). */
  source: string;
  target: string;
  detected?: DetectedLanguage;
  /** Characters counted for the caller (tags of html not counted). */
  characters: number;
  engineId: number;
  nodeId: number;
  /** Each sentence segment with its translation and where it came from (absent when nothing was translated). */
  segments?: TranslateSegmentsResult['segments'];
}

/** A node as the running service sees it (for the engine-management screens). */
export interface EngineNodeStatus {
  id: number;
  running: boolean;
  health: 'unknown' | 'healthy' | 'unhealthy' | 'stopped';
  lastError: string | null;
  pairs: { source: string; target: string }[];
  inFlight: number;
  /** A crashed node waiting to be started again: failed attempts so far and when the next one is due. */
  restart?: { attempts: number; nextAttemptAt: string } | null;
  /** Why the node cannot run at all: no adapter of its kind is registered (its plugin is not enabled). */
  unavailable?: string | null;
}

export type LicenceVerdict =
  | { ok: true; licence: { engine: string; pairs: { source: string; target: string }[]; nodeLimit: number; expiresAt: string; issuedTo?: string }; keyName: string }
  | { ok: false; reason: string };

/**
 * The translation service (`ctx.engines`): every translation of the platform goes through it,
 * so node choice, fail-over, the caps of the translation settings and usage accounting are the
 * same for the console, the public API and documents. `translate` rejects with ApiError 400
 * (bad input, over the text cap, no engine for the pair), 429 (over the API cap) or 503
 * (service interrupted: no node answered).
 */
export interface EngineService {
  translate(request: EngineTranslateRequest): Promise<EngineTranslateResult>;
  /** Units in, units out, through the same pipeline (hooks, routing, fail-over, usage): documents and CAT. */
  translateSegments(request: TranslateSegmentsRequest): Promise<TranslateSegmentsResult>;
  /** Detects among every language the detector knows, and says whether (and into what) the engines translate it. */
  detect(text: string): Promise<DetectedLanguage>;
  languages(): Promise<EngineLanguage[]>;
  /**
   * The engines a request for this pair (and domain) may name as its `engineId`: enabled, unexpired,
   * taking the pair and the domain, with a node that translates it. Routing enforces the same rule.
   */
  choices(request: { source: string; target: string; domain?: string }): Promise<EngineChoice[]>;
  /** Sentences of `text`; joining them gives `text` back. */
  split(text: string, language?: string): string[];
  /** Words (jieba for Chinese, Intl.Segmenter otherwise). */
  segment(text: string, language?: string): string[];
  /** Counts characters for a caller outside `translate` (e.g. a document's characters). */
  recordUsage(userId: number, channel: TranslationChannel, characters: number, documents?: number): Promise<void>;
  /** Node control for the engine-management area. */
  nodes: {
    start(nodeId: number): Promise<EngineNodeStatus>;
    stop(nodeId: number): Promise<EngineNodeStatus>;
    /** Runs a health check now. */
    check(nodeId: number): Promise<EngineNodeStatus>;
    status(nodeId: number): EngineNodeStatus;
    /** The nodes this platform runs as local processes (an APy), with their process ids. */
    local(): { id: number; name: string; pid: number }[];
    /** Re-reads engines and nodes after the tables changed; stops runtimes of deleted nodes. */
    reload(): Promise<void>;
  };
  /** Checks an authorization file against the trusted licence keys. */
  verifyLicence(text: string): Promise<LicenceVerdict>;
  /** Seals a secret (node password, remote API key) with the server's key for storage. */
  seal(plain: string): string;
  /**
   * Registers an engine adapter (a kind of node); the kernel routes to nodes of that kind from now
   * on and starts those left running. Returns an unregister; a plugin's adapters also go when it stops.
   */
  registerAdapter(definition: AnyEngineAdapterDefinition): () => void;
  /** The registered kinds, for the engine-management screens (their config fields as JSON Schema). */
  adapterKinds(): EngineAdapterKind[];
  /** The definition registered for `kind`, if any (its schema validates a node's config). */
  adapter(kind: string): EngineAdapterDefinition | undefined;
  /**
   * Declares a capability (capabilities.ts); an adapter definition naming a declaration registers it
   * too. Several plugins may declare the same id; it goes when the last of them stops or unregisters.
   */
  registerCapability(definition: EngineCapabilityDefinition<any>): () => void;
  /** The registered capabilities, for the engines page (labels, icon, routing). */
  capabilities(): EngineCapabilityInfo[];
  /** Routing on the nodes of a capability routed by language (404 in both languages when none is registered by that id). */
  capability<A = unknown>(id: string): CapabilityService<A>;
  /** Speech recognition on the speech nodes (kinds registered with `capability: speechCapability`). */
  readonly speech: SpeechService;
  /** Text in pictures on the OCR nodes (kinds registered with `capability: ocrCapability`). */
  readonly ocr: OcrService;
  /** Speaker recognition on the speaker nodes (kinds registered with `capability: speakerCapability`). */
  readonly speaker: SpeakerService;
}
export {
  EngineError,
  isEngineError,
  failsNode,
  errorForStatus,
  keepOuterWhitespace,
  engineFetch,
  parseJson,
  mapLimit,
  limitConcurrency,
  trimSlash,
  languageName,
  seedLocalNodeMigration,
  translateCapability,
} from './engines.js';
// Engine capabilities: declared by plugins, registered like adapter kinds (capabilities.ts).
export { capabilityMessages } from './capabilities.js';
export type { CapabilityMessages, CapabilityNodeChoice, CapabilityRequest, CapabilityService, EngineCapabilityDefinition, EngineCapabilityInfo, LanguageRoutedAdapter } from './capabilities.js';
export type {
  EngineAdapter,
  EngineAdapterDefinition,
  EngineAdapterKind,
  EngineCapability,
  EngineCreateHelpers,
  EngineErrorKind,
  EngineHealth,
  EngineNode,
  EngineProcess,
  EngineProcessExit,
  EngineResponse,
  EngineSuperviseHelpers,
  LanguagePair,
  TranslateBatch,
} from './engines.js';
export type { TaskDefinition, TaskHandle, TaskInfo, TaskProgress, TaskRunContext, TaskService, TaskStartOptions } from './tasks.js';
export { PIPELINE_STAGES } from './pipeline.js';
export type {
  PipelineContext,
  PipelineSegment,
  PipelineStage,
  SegmentIssue,
  SegmentOrigin,
  EngineChoice,
  TermRequirement,
  TranslateHook,
  TranslateSegmentsRequest,
  TranslateSegmentsResult,
  TranslationPipeline,
  TranslationRequestBase,
  TranslationResources,
} from './pipeline.js';
export { defineService, type PluginServices, type ServiceToken, type ServiceCaller } from './services.js';
export { serviceCallerOf, serviceInput } from './library-services.js';
export * from './memories.js';
export * from './termbases.js';
export { morphologyService, type Morphology, type MorphUnit, type MorphReading, type MorphWord } from './morphology.js';
export { documentTranslationService, type DocumentTranslationService } from './documents.js';
export { uploadedFileSchema, uploadedFilesSchema, optionalUploadedFilesSchema, isUploadedFile, uploadPath, registerUploadedFile, NotAnUploadError, type UploadedFile } from './uploads.js';
export { convertWithOffice, pdfPages, pdfPageCount, ConversionError, officeLanguage, type OfficeLanguage } from './office.js';
// Budgets for parsing one document; heavy parsing of a plugin's own code in worker processes with a heap limit.
export { DOCUMENT_BUDGETS, documentBudgets, zipBudget, type DocumentBudgets } from './budgets.js';
export { formatsOffThread, OFF_THREAD_BYTES } from './off-thread-formats.js';
export { defineWorkerTask, WorkerTaskError, WorkerRunError, type WorkerTask, type WorkerTaskOptions } from './worker-tasks.js';
// Command-line tools run with a deadline and abort, in scratch folders; page layout of words with boxes (PDF text, OCR).
// (implemented by the workspace package @linguaport/spawner; the SDK passes on what plugins call).
export { runTool, startWarmTool, inScratch, mapLimited, ToolError, type RunOptions, type WarmTool } from '@linguaport/spawner';
export { readBboxLayout, readTesseractTsv, paragraphsOf, blocksOf, blockText, lineText, splitAtGaps, toBlock, isFolio, columnGroups, readingOrder, type Box, type Word, type Line, type Block, type PageText } from './layout.js';
// What ffmpeg and ffprobe may open (a plugin running them itself names its inputs so); ffmpeg's work itself is @linguaport/media.
export { MEDIA_DEMUXERS, PICTURE_DEMUXERS, mediaInputArgs, pictureInputArgs, mediaDemuxerOf, unnamedMediaInput } from '@linguaport/spawner';
// Speech engines: the adapter contract (speech kinds register through registerAdapter) and ctx.engines.speech.
export { isSpeechAdapter, speechCapability, wordErrorRate } from './speech.js';
export type { SpeechAdapter, SpeechNodeChoice, SpeechSegment, SpeechService, SpeechTranscribeRequest, SpeechTranscribeResult, TranscribeOptions } from './speech.js';
export type { AnyEngineAdapterDefinition, SpeechAdapterDefinition, OcrAdapterDefinition, SpeakerAdapterDefinition } from './engines.js';
// Speaker engines: the adapter contract (speaker kinds register through registerAdapter) and ctx.engines.speaker.
export { ANY_LANGUAGE, isSpeakerAdapter, speakerCapability, speakerWavSamples, VOICE_SAMPLE_RATE } from './speaker.js';
export type { SpeakerAdapter, SpeakerAnswer, SpeakerCallOptions, SpeakerEnrolRequest, SpeakerNodeChoice, SpeakerScoreRequest, SpeakerScores, SpeakerService, SpeakerTrainRequest } from './speaker.js';
// OCR engines: the adapter contract (OCR kinds register through registerAdapter) and ctx.engines.ocr.
// The built-in tesseract engine and its language packs are @linguaport/ocr.
export { isOcrAdapter, ocrCapability, ocrLanguagesToRead, ocrServiceOf } from './ocr.js';
export type { OcrAdapter, OcrLine, OcrPage, OcrRecognizeRequest, OcrRecognizeResult, OcrService, OcrWord, RecognizeOptions } from './ocr.js';
export * from './voiceprint.js';
export { SocketCloseCodes, type SocketDefinition, type SocketConnection, type PluginSocket } from './sockets.js';
// Pictures by their header (type, size), for the areas that read pictures and scans.
export { pictureKind, pictureSize, MAX_PICTURE_PIXELS, renderDpi, pdfPageSizes, type PictureKind } from './pictures.js';
// An area's own settings table with configuration and built-in defaults.
export { createAreaSettings, type AreaSettingsStore } from './area-settings.js';
// The kernel's records areas show (ctx.usage, ctx.operationLog): typed services instead of its tables.
export type { UsagePeriod, UsageTotals, UserUsage, UsageByUserQuery, UsageRecords, OperationLogFilter, OperationLogEntry, OperationLogReader, RoleRecord, RoleAdmin, DepartmentRecord, DepartmentInput, DepartmentAdmin, UserRecord, UserSortColumn, UserPageQuery, UserFields, NewUser, AccountContact, UserAdmin, Organisation, EngineRecord, EngineWrite, EngineNodeRecord, EngineNodeWrite, EngineAdmin, DomainUsage } from './kernel-data.js';
export { operationTitleJoin, operationTitleColumns, operationLine, operationModuleNames, fillOperationTitle, type OperationLineRow } from './operation-log.js';
// Response schemas of what the SDK's services answer (languages, detection, segments), for routes that pass them on.
export { engineLanguageSchema, detectedLanguageSchema, segmentIssueSchema, segmentOriginSchema, translatedSegmentSchema, deletedSchema } from './answers.js';
