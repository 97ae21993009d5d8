/** What a plugin's `register(ctx)` receives, and how the kernel builds it for each plugin. */
import { serviceRegistrarFor, type ServiceRegistrar } from './container';
import { KernelError } from './errors';
import type { HookKind, HookRef, HookTapper } from './hooks';
import type { ActionRegistrar } from './actions';
import type { PlannedPlugin, PluginManifest } from './loader';
import type { Kernel } from './kernel';
import type { Logger, ServiceConfig } from './types';

/** What `register(ctx)` receives: facades that fill in the plugin's name. */
export interface PluginContext<Options = Record<string, unknown>> {
  readonly name: string;
  /** The plugin's options (`pluginConfig.<name>`), validated against its manifest. */
  readonly config: Readonly<Options>;
  /** The whole service configuration (read-only). */
  readonly serviceConfig: Readonly<ServiceConfig>;
  readonly log: Logger;
  readonly hooks: HookTapper;
  readonly actions: ActionRegistrar;
  readonly services: ServiceRegistrar;
  /** The plugin's folder. */
  readonly dir: string;
  /** Every planned plugin, in boot order (read-only): name, folder and manifest. */
  readonly plugins: ReadonlyArray<{ readonly name: string; readonly dir: string; readonly manifest: PluginManifest }>;
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

/** Lifecycle callbacks a plugin registered, with the plugin's name for timeouts and logs. */
export interface PluginCallback {
  plugin: string;
  fn: () => unknown;
}

export function pluginContext(
  kernel: Kernel,
  plugin: PlannedPlugin,
  callbacks: { ready: PluginCallback[]; close: PluginCallback[] },
): PluginContext {
  const owned = new Set(plugin.manifest.provides.hooks);
  return {
    name: plugin.name,
    config: Object.freeze(plugin.options),
    serviceConfig: kernel.config,
    log: kernel.log.child({ plugin: plugin.name }),
    hooks: kernel.hooks.tapperFor(plugin.name),
    actions: kernel.actions.registrarFor(plugin.name),
    services: serviceRegistrarFor(kernel.container, plugin.name, plugin.manifest.provides.services),
    dir: plugin.dir,
    plugins: Object.freeze(kernel.plugins.map(({ name, dir, manifest }) => Object.freeze({ name, dir, manifest }))),
    runHook: (ref, ...args) => {
      if (!owned.has(ref.id))
        throw new KernelError(
          'E_HOOK_KIND',
          `Plugin ${plugin.name} ran hook ${ref.id}, which its manifest does not list in provides.hooks`,
          { plugin: plugin.name },
        );
      return kernel.hooks.run(ref, ...args);
    },
    onReady: (fn) => callbacks.ready.push({ plugin: plugin.name, fn }),
    onClose: (fn) => callbacks.close.push({ plugin: plugin.name, fn }),
  };
}
