/** Types shared by the kernel and plugins. */
import type { AwilixContainer } from 'awilix';
import type { Knex } from 'knex';

/** A permission requirement: a name, all of several, any of several, or `'public'`. */
export type Permission = 'public' | string | { allOf: Permission[] } | { anyOf: Permission[] };

/** Who is calling. Auth plugins build it; `auth.principal` taps fill in permissions. */
export interface Principal {
  contactId: number | null;
  userId: number | null;
  /** Credential type that authenticated (`api_key`, `jwt`, `pass`, `session`, …) or `anonymous`. */
  via: string;
  /** Auth flow or method name (`header`, `xheader`, `param`, `legacyrest`, `session`, …). */
  flow?: string;
  /** Permission names held; `'*'` holds every permission. */
  permissions: ReadonlySet<string>;
  /** Auth-plugin specific facts (session id, JWT claims…). */
  attributes?: Readonly<Record<string, unknown>>;
}

export const ANONYMOUS: Principal = Object.freeze({
  contactId: null,
  userId: null,
  via: 'anonymous',
  permissions: new Set<string>(),
});

/** What a handler gets besides its params. */
export interface ActionContext {
  readonly version: number;
  readonly entity: string;
  readonly action: string;
  readonly principal: Principal;
  /** The request scope; resolve services from here. */
  readonly scope: AwilixContainer<Cradle>;
  /** The database handle for this call: the ambient transaction when there is one. */
  readonly db: Knex;
  /** Trusted in-process call (the one trust flag): no authorization happened; skip row access too. */
  readonly trusted: boolean;
  /** The caller writes the result out as compact JSON: a `WireJson` answer is welcome (ApiCallRequest.wire). */
  readonly wire?: WireRequest;
  /** Calls another action in the same scope, principal and transaction (chaining, `api3()`). */
  call(
    entity: string,
    action: string,
    params: Record<string, unknown>,
    opts?: { version?: number; trusted?: boolean },
  ): Promise<unknown>;
}

/**
 * The container's names. Plugins add theirs by declaration merging on this interface in their own
 * `types.ts`, next to the plugin.
 */
export interface Cradle {
  config: ServiceConfig;
  log: Logger;
  db: Knex;
  hooks: import('./hooks').HookBus;
  actions: import('./actions').ActionRegistry;
  /** The narrow API surface plugins call through: `call` runs the pipeline, `can` asks authorize only. */
  api: Api;
  requestId: string;
  principal: Principal;
  [service: string]: unknown;
}

/**
 * The logger the kernel and plugins write to. The host supplies it (pino today); the kernel only
 * needs this much, so swapping the logging library touches no kernel file.
 */
export interface Logger {
  child(bindings: Record<string, unknown>): Logger;
  fatal(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  info(obj: object | string, msg?: string): void;
  debug(obj: object | string, msg?: string): void;
  trace(obj: object | string, msg?: string): void;
}

/**
 * What the kernel reads from the service configuration. The host's configuration loader adds its
 * own keys (server, database, log…) to this interface by declaration merging, so plugins see the
 * whole configuration through `ctx.serviceConfig` without the kernel knowing its shape.
 */
export interface ServiceConfig {
  /** Exact list of enabled plugins; when absent, every plugin whose manifest says `enabledByDefault`. */
  plugins?: string[];
  /** Added to / removed from the default set (ignored when `plugins` is given). */
  enable: string[];
  disable: string[];
  /** Extra folders holding plugin folders (for extension authors), besides the built-in `plugins/`. */
  pluginPaths: string[];
  /** Per-plugin options, validated against each manifest's `config` schema. */
  pluginConfig: Record<string, Record<string, unknown>>;
  mode: 'production' | 'development' | 'test';
  /** Per-plugin limit for register, ready and close. */
  pluginTimeoutMs: number;
  /** Folder the config file was read from; relative paths resolve against it. */
  root: string;
}

/** Options of an in-process call through the `api` service. */
export interface ApiCallRequest {
  version?: number;
  entity: string;
  action: string;
  params: Record<string, unknown>;
  principal?: Principal;
  /** The request scope; a fresh one is made (and disposed) when absent. */
  scope?: AwilixContainer<Cradle>;
  /** The ambient transaction, for nested calls. */
  db?: Knex;
  /**
   * Trusted in-process code: authorization is skipped and handlers skip row access (`ctx.trusted`). The
   * principal stays who it is. The one trust flag.
   */
  trusted?: boolean;
  /** Run everything, then roll the database back (APIv3 `options.force_rollback`). */
  rollback?: boolean;
  /** May reach actions marked `internal` (set only by a plugin's own routes and jobs, never by bindings). */
  internal?: boolean;
  /**
   * Set by a binding that writes the result straight out as compact JSON: the action may answer a
   * `WireJson` (pre-rendered text) instead of values. In-process callers leave it unset and get values.
   */
  wire?: WireRequest;
}

/**
 * `json`: a `WireJson` answer is welcome; `json-database`: the same, and the binding asks that rows be rendered
 * by the database where the action can (ADR 0017, `rest-api3.rowsFromDatabase`).
 */
export type WireRequest = 'json' | 'json-database';

/** The `api` service: what plugins may do with the kernel's pipeline, and nothing more. */
export interface Api {
  call(req: ApiCallRequest): Promise<unknown>;
  can(
    entity: string,
    action: string,
    principal: Principal,
    opts?: { version?: number; params?: Record<string, unknown> },
  ): Promise<boolean>;
  /** The action catalogue (getactions/getActions list what the caller may run). */
  actions(filter?: { version?: number; entity?: string }): import('./actions').ActionListing[];
  /** A request scope for work outside an HTTP request (CLI commands, background jobs). */
  scope(name: string, principal?: Principal): AwilixContainer<Cradle>;
}

/** Migrations of one plugin: its name and its `migrations/` folder. */
export interface PluginMigrations {
  plugin: string;
  dir: string;
}

/**
 * The database engine as the kernel sees it: the host opens it (PostgreSQL or embedded PGlite) and
 * hands over the knex handle and these operations, so swapping the engine touches no kernel file.
 */
export interface Storage {
  readonly db: Knex;
  /** Fails with E_DB_UNAVAILABLE when the database cannot be reached. */
  ping(): Promise<void>;
  /** At start: like ping, but may wait for a database that is still coming up (default: ping). */
  connect?(): Promise<void>;
  /** Applies pending migrations, in the order given; returns the names applied. */
  migrate(plugins: PluginMigrations[]): Promise<string[]>;
  close(): Promise<void>;
}
