/** The kernel's public surface: what plugins, the host and the CLI import. */
export {
  ActionRegistry,
  type ActionDefinition,
  type ActionListing,
  type ActionRegistrar,
  type VersionNaming,
} from './actions';
export { createRequestScope, type ServiceRegistrar } from './container';
export { definePlugin, type PluginContext, type RegisterFn } from './context';
export {
  apiAuthorize,
  apiException,
  apiPrepare,
  apiRespond,
  apiWrite,
  kernelReady,
  type ApiRequest,
} from './core-hooks';
export { KernelError, errorCodes, isKernelError, registerErrorCodes, type ErrorCodeInfo } from './errors';
export { defineHook, HookBus, Stage, type HookKind, type HookRef, type HookTapper } from './hooks';
export { Kernel, KERNEL_VERSION, type CallRequest } from './kernel';
export { isWireJson, WireJson } from './wire';
export { discoverPlugins, planPlugins, BUILTIN_PLUGINS_DIR, type PluginManifest } from './loader';
export { describePermission, holds } from './permissions';
export { compileOnFirstUse, compileWith, describeErrors, type AjvFlavor } from './schema';
export {
  ANONYMOUS,
  type ActionContext,
  type Api,
  type Cradle,
  type Logger,
  type Permission,
  type PluginMigrations,
  type Principal,
  type ServiceConfig,
  type Storage,
  type WireRequest,
} from './types';
