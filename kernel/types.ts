/** Types shared by the kernel and plugins. */
import type { AwilixContainer } from 'awilix';
import type { Knex } from 'knex';
import type { Context } from 'koa';
import type { Logger } from 'pino';

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
  /** Calls another action in the same scope, principal and transaction (chaining, `api3()`). */
  call(
    entity: string,
    action: string,
    params: Record<string, unknown>,
    opts?: { version?: number; trusted?: boolean },
  ): Promise<unknown>;
}

/** A request as auth plugins see it: no Koa objects, so they stay testable. */
export interface AuthRequest {
  readonly method: string;
  readonly path: string;
  readonly ip: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: Readonly<Record<string, unknown>>;
  /** Auth methods the matched route accepts (e.g. `authx`, `legacy-keys`, `session`). */
  readonly accepts: readonly string[];
  /** The route's id (`<plugin>:<name>`), for per-route policies. */
  readonly route: string;
  cookie(name: string): string | undefined;
}

/** A raw HTTP answer an auth plugin may require on refusal (e.g. AuthX's `HTTP 401` text). */
export interface RawResponse {
  status: number;
  type: string;
  body: string;
  headers?: Record<string, string>;
}

export type CredentialResult =
  | { accept: Omit<Principal, 'permissions'> & { permissions?: ReadonlySet<string> } }
  | { reject: string; response?: RawResponse; details?: Record<string, unknown> };

/** A route contributed through the `http.routes` hook. */
export interface RouteDefinition {
  /** Unique within the plugin; the route id is `<plugin>:<name>`. */
  name: string;
  methods: Array<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS' | 'HEAD'>;
  /** One path or several aliases (koa-router syntax). */
  path: string | string[];
  /** Auth methods accepted here; none means the route is public (only the anonymous principal). */
  auth?: string[];
  handler(ctx: Context, scope: AwilixContainer<Cradle>): Promise<void> | void;
  /** Renders a thrown error in the route's own wire format; default: JSON `{error:{code,message}}` with its status. */
  renderError?(err: import('./errors').KernelError, ctx: Context): void;
}

/** An output format contributed through `format.renderers`. */
export interface Renderer {
  /** Short name used by an explicit `format` parameter (`json`, `xml`). */
  name: string;
  mediaType: string;
  render(value: unknown, opts: Record<string, unknown>): string;
}

/**
 * The container's names. Plugins add theirs by declaration merging on this interface in their own
 * `types.ts`, next to the plugin.
 */
export interface Cradle {
  config: import('./config').Config;
  log: Logger;
  db: Knex;
  hooks: import('./hooks').HookBus;
  actions: import('./actions').ActionRegistry;
  kernel: import('./kernel').Kernel;
  requestId: string;
  principal: Principal;
  [service: string]: unknown;
}
