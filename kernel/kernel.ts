/**
 * The kernel: boots plugins in a checked order and runs every API call through one pipeline
 * (kernel/pipeline.ts). The host gives it its configuration, logger and database (kernel/types.ts
 * `Storage`); the kernel opens no connection, reads no file of its own and serves no HTTP.
 */
import path from 'node:path';
import type { AwilixContainer } from 'awilix';
import { asValue } from 'awilix';
import type { Knex } from 'knex';
import { ActionRegistry } from './actions';
import { createRequestScope, createRootContainer } from './container';
import { pluginContext, type PluginCallback, type RegisterFn } from './context';
import { apiAuthorize, kernelReady } from './core-hooks';
import { KernelError, isKernelError } from './errors';
import { HookBus, Stage } from './hooks';
import { planPlugins, type PlannedPlugin } from './loader';
import { importRegister, withTimeout } from './plugin-code';
import { checkPermission } from './permissions';
import { canCall, runCall } from './pipeline';
import { ANONYMOUS, type Api, type ApiCallRequest, type Cradle, type Logger, type Principal } from './types';
import type { ServiceConfig, Storage } from './types';

export const KERNEL_VERSION = '1.0.0';

/** A call through the pipeline (the `api` service's request). */
export type CallRequest = ApiCallRequest;

export class Kernel {
  readonly hooks: HookBus;
  readonly actions = new ActionRegistry();
  readonly container: AwilixContainer<Cradle> = createRootContainer();
  /** The narrow surface plugins get as the `api` service. */
  readonly api: Api;
  plugins: PlannedPlugin[] = [];
  private callbacks = { ready: [] as PluginCallback[], close: [] as PluginCallback[] };
  private closed = false;

  constructor(
    readonly config: ServiceConfig,
    readonly log: Logger,
    private readonly storage: Storage,
  ) {
    this.hooks = new HookBus(config.mode !== 'production');
    this.api = Object.freeze({
      call: (req: ApiCallRequest) => this.call(req),
      can: (entity: string, action: string, principal: Principal, opts?: Parameters<Api['can']>[3]) =>
        this.can(entity, action, principal, opts),
      actions: (filter?: { version?: number; entity?: string }) => this.actions.list(filter),
      scope: (name: string, principal: Principal = ANONYMOUS) => createRequestScope(this.container, name, principal),
    });
    this.container.register({
      config: asValue(config),
      log: asValue(log),
      db: asValue(storage.db),
      hooks: asValue(this.hooks),
      actions: asValue(this.actions),
      api: asValue(this.api),
    });
    // The default permission check decides last, so plugins tapping earlier can allow or deny first.
    this.hooks.tap('kernel', apiAuthorize, (req) => checkPermission(req), { stage: Stage.LATE });
  }

  /** The database handle the host opened. */
  get db(): Knex {
    return this.storage.db;
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
    for (const plugin of this.plugins) {
      // Importing is compiling, not plugin work: only register/ready/close are timed.
      const register = await importRegister(plugin).catch((err) => {
        throw isKernelError(err)
          ? err
          : new KernelError(
              'E_PLUGIN_FAILED',
              `Plugin ${plugin.name} failed to load: ${(err as Error)?.message ?? String(err)}`,
              { plugin: plugin.name, cause: err },
            );
      });
      const ctx = pluginContext(this, plugin, this.callbacks);
      await withTimeout(() => (register as RegisterFn)(ctx), this.config.pluginTimeoutMs, plugin.name, 'register');
    }
    this.hooks.seal();
    this.actions.seal();
    return this;
  }

  /** Phase 2: apply migrations (unless told not to), then run onReady callbacks in plugin order. */
  async start(opts: { migrate?: boolean } = {}): Promise<this> {
    await (this.storage.connect ? this.storage.connect() : this.storage.ping());
    if (opts.migrate !== false) await this.migrate();
    for (const { plugin, fn } of this.callbacks.ready)
      await withTimeout(fn, this.config.pluginTimeoutMs, plugin, 'onReady');
    await this.hooks.run(kernelReady);
    return this;
  }

  /** Applies pending migrations of the enabled plugins, in plugin order. */
  migrate(): Promise<string[]> {
    return this.storage.migrate(
      this.plugins.map((plugin) => ({ plugin: plugin.name, dir: path.join(plugin.dir, 'migrations') })),
    );
  }

  /** Runs onClose callbacks in reverse order, then disposes the root container and closes the database. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const errors: unknown[] = [];
    for (const { plugin, fn } of [...this.callbacks.close].reverse()) {
      try {
        await withTimeout(fn, this.config.pluginTimeoutMs, plugin, 'onClose');
      } catch (err) {
        errors.push(err);
        this.log.error({ plugin, err }, 'plugin close failed');
      }
    }
    await this.container.dispose();
    await this.storage.close();
    if (errors.length) throw errors[0];
  }

  /** Resolve and authorize only: may this principal call this action (with these params)? */
  can(
    entity: string,
    action: string,
    principal: Principal,
    opts: { version?: number; params?: Record<string, unknown> } = {},
  ): Promise<boolean> {
    return canCall(this, entity, action, principal, opts);
  }

  /** The pipeline every API call goes through, from HTTP or in-process. */
  call(req: CallRequest): Promise<unknown> {
    return runCall(this, req);
  }
}
