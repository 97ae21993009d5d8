/** The kernel's public surface: what plugins and the CLI import. */
export {
  ActionRegistry,
  normaliseAction,
  normaliseEntity,
  type ActionDefinition,
  type ActionListing,
  type ActionRegistrar,
  type CompiledAction,
} from './actions';
export { loadConfig, finishConfig, type Config } from './config';
export { createRequestScope, type ServiceRegistrar } from './container';
export * from './core-hooks';
export { closeDb, createDb, engineOf, ping, sqlDuring, type Db } from './db';
export {
  KernelError,
  AggregateKernelError,
  errorCodes,
  isKernelError,
  registerErrorCodes,
  kernelErrorCodes,
  type ErrorCodeInfo,
} from './errors';
export {
  defineHook,
  HookBus,
  Stage,
  type HookKind,
  type HookRef,
  type HookTapper,
  type TapFn,
  type TapOptions,
} from './hooks';
export { createApp, collectRoutes } from './http/app';
export { startServer, type RunningServer } from './http/server';
export {
  createKernel,
  definePlugin,
  Kernel,
  KERNEL_VERSION,
  type CallRequest,
  type PluginContext,
  type RegisterFn,
} from './kernel';
export { discoverPlugins, enabledNames, planPlugins, BUILTIN_PLUGINS_DIR, type PluginManifest } from './loader';
export { createLogger, SECRET_KEYS } from './log';
export { describePermission, holds } from './permissions';
export * from './types';
