/** Types of the host layer: HTTP routes, request authentication, output formats, CLI commands. */
import type { AwilixContainer } from 'awilix';
import type { Knex } from 'knex';
import type { Context } from 'koa';
import type { Api, Cradle, KernelError, Principal } from '../kernel';

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

/** An output format contributed through `format.renderers`. */
export interface Renderer {
  /** Short name used by an explicit `format` parameter (`json`, `xml`). */
  name: string;
  mediaType: string;
  render(value: unknown, opts: Record<string, unknown>): string;
}
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
  renderError?(err: KernelError, ctx: Context): void;
}

/** What a CLI command receives besides its arguments: the pipeline, the database and the services. */
export interface CliContext {
  readonly api: Api;
  readonly db: Knex;
  /** The root container's services (what plugins registered). */
  readonly services: Cradle;
}

/** A CLI command contributed by a plugin (`crm user add …`). The CLI boots the kernel before running it. */
export interface CliCommand {
  /** Space-separated path: `user add` becomes `crm user add`. */
  name: string;
  description: string;
  arguments?: Array<{ name: string; description: string; required?: boolean }>;
  /** Commander flags, e.g. `{ flags: '--ttl <seconds>', description: '…', default: '3600' }`. */
  options?: Array<{ flags: string; description: string; default?: string }>;
  /** Runs with the booted kernel; what it returns is printed. */
  run(args: string[], options: Record<string, unknown>, cli: CliContext): Promise<string | void> | string | void;
}
