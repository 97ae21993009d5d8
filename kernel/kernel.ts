/**
 * The kernel: boots plugins in a checked order and runs every API call through one pipeline,
 * resolve → authorize → validate → prepare → invoke → respond (exception on failure).
 */
import path from 'node:path';
import type { AwilixContainer } from 'awilix';
import { asValue } from 'awilix';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { ActionRegistry, type ActionRegistrar, type CompiledAction } from './actions';
import type { Config } from './config';
import { createRequestScope, createRootContainer, serviceRegistrarFor, type ServiceRegistrar } from './container';
import { apiAuthorize, apiException, apiPrepare, apiRespond, kernelReady, type ApiRequest } from './core-hooks';
import { closeDb, createDb, migrate, ping, type Db } from './db';
import { KernelError, isKernelError } from './errors';
import { HookBus, Stage, type HookKind, type HookRef, type HookTapper } from './hooks';
import { importRegister, planPlugins, withTimeout, type PlannedPlugin } from './loader';
import { createLogger } from './log';
import { describeErrors } from './schema';
import { checkPermission } from './permissions';
import { ANONYMOUS, type ActionContext, type Cradle, type Permission, type Principal } from './types';

export const KERNEL_VERSION = '1.0.0';

/** What `register(ctx)` receives: facades that fill in the plugin's name. */
export interface PluginContext<Options = Record<string, unknown>> {
  readonly name: string;
  /** The plugin's options (`pluginConfig.<name>`), validated against its manifest. */
  readonly config: Readonly<Options>;
  /** The whole service configuration (read-only). */
  readonly serviceConfig: Readonly<Config>;
  readonly log: Logger;
  readonly hooks: HookTapper;
  readonly actions: ActionRegistrar;
  readonly services: ServiceRegistrar;
  /** The plugin's folder. */
  readonly dir: string;
  /** Runs a hook this plugin owns (listed in its manifest's `provides.hooks`). */
  runHook<K extends HookKind, A extends unknown[], O>(ref: HookRef<K, A, O>, ...args: A): Promise<O>;
  /** I/O belongs here: runs after every plugin registered and migrations ran, in plugin order. */
  onReady(fn: () => Promise<void> | void): void;
  /** Runs at shutdown, in reverse plugin order. */
  onClose(fn: () => Promise<void> | void): void;
}

export type RegisterFn<Options = Record<string, unknown>> = (ctx: PluginContext<Options>) => void | Promise<void>;

/**
 * Identity helper that exists for type inference in `register.ts`.
 * @example export default definePlugin<{ greeting: string }>(({ actions, config }) => { … });
 */
export const definePlugin = <Options = Record<string, unknown>>(register: RegisterFn<Options>) => register;

export interface CallRequest {
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
   * principal stays who it is. The one trust flag (replaces `checkPermissions: false`).
   */
  trusted?: boolean;
  /** Run everything, then roll the database back (APIv3 `options.force_rollback`). */
  rollback?: boolean;
}

export interface CreateKernelOptions {
  config: Config;
  log?: Logger;
  db?: Db;
  /** Apply pending migrations at start (default true). */
  migrate?: boolean;
  /** Extra plugin folders (tests load fixtures this way). */
  pluginDirs?: string[];
}

export class Kernel {
  readonly hooks: HookBus;
  readonly actions = new ActionRegistry();
  readonly container = createRootContainer();
  plugins: PlannedPlugin[] = [];
  private readyFns: Array<{ plugin: string; fn: () => unknown }> = [];
  private closeFns: Array<{ plugin: string; fn: () => unknown }> = [];
  private closed = false;

  constructor(
    readonly config: Config,
    readonly log: Logger,
    readonly db: Db,
  ) {
    this.hooks = new HookBus(config.mode !== 'production');
    this.container.register({
      config: asValue(config),
      log: asValue(log),
      db: asValue(db),
      hooks: asValue(this.hooks),
      actions: asValue(this.actions),
      kernel: asValue(this),
    });
    // The default permission check decides last, so plugins tapping earlier can allow or deny first.
    this.hooks.tap('kernel', apiAuthorize, (req) => checkPermission(req), { stage: Stage.LATE });
  }

  /** Plans, registers and readies every enabled plugin; see docs/architecture.md for the lifecycle. */
  async boot(opts: { migrate?: boolean; pluginDirs?: string[] } = {}): Promise<this> {
    await this.register(opts.pluginDirs);
    await this.start({ migrate: opts.migrate });
    return this;
  }

  /** Phase 1, no I/O: plan the plugins, import and register each, then seal the registries. */
  async register(pluginDirs?: string[]): Promise<this> {
    this.plugins = planPlugins(this.config, KERNEL_VERSION, pluginDirs);
    for (const p of this.plugins) {
      // Importing is compiling, not plugin work: only register/ready/close are timed.
      const register = await importRegister(p).catch((err) => {
        throw isKernelError(err)
          ? err
          : new KernelError(
              'E_PLUGIN_FAILED',
              `Plugin ${p.name} failed to load: ${(err as Error)?.message ?? String(err)}`,
              { plugin: p.name, cause: err },
            );
      });
      await withTimeout(
        () => (register as RegisterFn)(this.contextFor(p)),
        this.config.pluginTimeoutMs,
        p.name,
        'register',
      );
    }
    this.hooks.seal();
    this.actions.seal();
    return this;
  }

  /** Phase 2: apply migrations (unless told not to), then run onReady callbacks in plugin order. */
  async start(opts: { migrate?: boolean } = {}): Promise<this> {
    await ping(this.db);
    if (opts.migrate !== false) await this.migrate();
    for (const { plugin, fn } of this.readyFns) await withTimeout(fn, this.config.pluginTimeoutMs, plugin, 'onReady');
    await this.hooks.run(kernelReady);
    return this;
  }

  /** Applies pending migrations of the enabled plugins, in plugin order. */
  migrate(): Promise<string[]> {
    return migrate(
      this.db,
      this.plugins.map((p) => ({ plugin: p.name, dir: path.join(p.dir, 'migrations') })),
    );
  }

  /** Runs onClose callbacks in reverse order, then disposes the root container (closing the pool). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const errors: unknown[] = [];
    for (const { plugin, fn } of [...this.closeFns].reverse()) {
      try {
        await withTimeout(fn, this.config.pluginTimeoutMs, plugin, 'onClose');
      } catch (err) {
        errors.push(err);
        this.log.error({ plugin, err }, 'plugin close failed');
      }
    }
    await this.container.dispose();
    await closeDb(this.db);
    if (errors.length) throw errors[0];
  }

  /** Resolve and authorize only: may this principal call this action (with these params)? */
  async can(
    entity: string,
    action: string,
    principal: Principal,
    opts: { version?: number; params?: Record<string, unknown> } = {},
  ): Promise<boolean> {
    const def = this.actions.get(opts.version ?? 3, entity, action);
    if (!def) return false;
    const decision = await this.authorize(def, principal, opts.params ?? {});
    return decision === 'allow';
  }

  /** The pipeline every API call goes through, from HTTP or in-process. */
  async call(req: CallRequest): Promise<unknown> {
    const version = req.version ?? 3;
    const principal = req.principal ?? ANONYMOUS;
    const ownScope = !req.scope;
    const scope = req.scope ?? createRequestScope(this.container, `call-${Date.now()}`, principal);
    let apiReq: ApiRequest = {
      version,
      entity: req.entity,
      action: req.action,
      principal,
      permission: 'public',
      params: req.params,
    };
    try {
      const def = this.actions.get(version, req.entity, req.action);
      if (!def) {
        throw new KernelError(
          'E_ACTION_NOT_FOUND',
          `API (${req.entity}, ${req.action}) does not exist (join the API team and implement it!)`,
          {
            details: { entity: req.entity, action: req.action },
          },
        );
      }
      apiReq = {
        ...apiReq,
        entity: def.resolvedEntity,
        action: def.action,
        permission: resolvePermission(def, req.params),
      };
      if (!req.trusted) {
        const decision = await this.authorize(def, principal, req.params);
        if (decision !== 'allow') {
          const code = principal.via === 'anonymous' ? 'E_UNAUTHENTICATED' : 'E_FORBIDDEN';
          throw new KernelError(code, decision?.deny ?? `No plugin authorized ${def.resolvedEntity}/${def.action}`, {
            details: { entity: def.resolvedEntity, action: req.action },
          });
        }
      }
      let params = validated(def, req.params);
      const prepared = await this.hooks.run(apiPrepare, params, apiReq);
      if (prepared !== params) params = validated(def, prepared);
      apiReq = { ...apiReq, params };
      const invoke = (db: Knex) => def.handler(params, this.actionContext(def, principal, scope, db, !!req.trusted));
      const result = await this.inTransaction(def, req, invoke);
      return await this.hooks.run(apiRespond, result, apiReq);
    } catch (err) {
      const error = isKernelError(err)
        ? err
        : new KernelError('E_INTERNAL', (err as Error)?.message ?? String(err), { cause: err });
      await this.hooks
        .run(apiException, error, apiReq)
        .catch((e) => this.log.error({ err: e }, 'api.exception tap failed'));
      throw error;
    } finally {
      if (ownScope) await scope.dispose();
    }
  }

  private async inTransaction(
    def: CompiledAction,
    req: CallRequest,
    invoke: (db: Knex) => Promise<unknown> | unknown,
  ): Promise<unknown> {
    const outer = req.db ?? this.db;
    if (!req.rollback && !def.writes) return invoke(outer);
    if (!req.rollback && req.db?.isTransaction) return invoke(req.db);
    // A savepoint when nested, a transaction otherwise; a dry run always rolls back.
    const trx = await outer.transaction();
    try {
      const result = await invoke(trx);
      if (req.rollback) await trx.rollback();
      else await trx.commit();
      return result;
    } catch (err) {
      if (!trx.isCompleted()) await trx.rollback();
      throw err;
    }
  }

  private async authorize(def: CompiledAction, principal: Principal, params: Record<string, unknown>) {
    return this.hooks.run(apiAuthorize, {
      version: def.version,
      entity: def.resolvedEntity,
      action: def.action,
      principal,
      permission: resolvePermission(def, params),
      params,
    });
  }

  private actionContext(
    def: CompiledAction,
    principal: Principal,
    scope: AwilixContainer<Cradle>,
    db: Knex,
    trusted: boolean,
  ): ActionContext {
    return {
      version: def.version,
      entity: def.resolvedEntity,
      action: def.action,
      principal,
      scope,
      db,
      trusted,
      call: (entity, action, params, opts = {}) =>
        this.call({
          version: opts.version ?? def.version,
          entity,
          action,
          params,
          principal,
          scope,
          db,
          trusted: opts.trusted ?? trusted,
        }),
    };
  }

  private contextFor(p: PlannedPlugin): PluginContext {
    const owned = new Set(p.manifest.provides.hooks);
    return {
      name: p.name,
      config: Object.freeze(p.options),
      serviceConfig: this.config,
      log: this.log.child({ plugin: p.name }),
      hooks: this.hooks.tapperFor(p.name),
      actions: this.actions.registrarFor(p.name),
      services: serviceRegistrarFor(this.container, p.name, p.manifest.provides.services),
      dir: p.dir,
      runHook: (ref, ...args) => {
        if (!owned.has(ref.id))
          throw new KernelError(
            'E_HOOK_KIND',
            `Plugin ${p.name} ran hook ${ref.id}, which its manifest does not list in provides.hooks`,
            { plugin: p.name },
          );
        return this.hooks.run(ref, ...args);
      },
      onReady: (fn) => this.readyFns.push({ plugin: p.name, fn }),
      onClose: (fn) => this.closeFns.push({ plugin: p.name, fn }),
    };
  }
}

/** Builds, boots and returns a kernel; on a boot failure the database handle is closed again. */
export async function createKernel(opts: CreateKernelOptions): Promise<Kernel> {
  const log = opts.log ?? createLogger({ level: opts.config.log.level, pretty: opts.config.log.pretty });
  const kernel = new Kernel(opts.config, log, opts.db ?? createDb(opts.config, log));
  try {
    return await kernel.boot({ migrate: opts.migrate, pluginDirs: opts.pluginDirs });
  } catch (err) {
    await kernel.close().catch(() => undefined);
    throw err;
  }
}

function validated(def: CompiledAction, params: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(params ?? {});
  if (!def.validate(copy)) {
    const problems = describeErrors(def.validate.errors);
    throw new KernelError(
      'E_INVALID_PARAMS',
      `Invalid params for ${def.resolvedEntity}.${def.action}: ${problems.join('; ')}`,
      { details: { problems } },
    );
  }
  return copy;
}

function resolvePermission(def: CompiledAction, params: Record<string, unknown>): Permission {
  return typeof def.permission === 'function' ? def.permission(params, def.resolvedEntity) : def.permission;
}
