/**
 * The host's public surface: configuration, logging, the database engines, the koa host, and the
 * hooks and types that belong to them (routes, request authentication, formats, CLI commands).
 * The test harness is its own entry point, `host/testing`, so production code never loads supertest.
 */
export { cliContext, createKernel, hostedKernel, type CreateKernelOptions } from './boot';
export { loadConfig, finishConfig, configSchema, type Config } from './config';
export {
  closeDb,
  createDb,
  embeddedSocketPath,
  engineOf,
  pendingMigrations,
  ping,
  shareEmbedded,
  sqlDuring,
  storageOf,
  type CreateDbOptions,
  type Db,
} from './db';
export { authCredential, authPrincipal, cliCommands, formatRenderers, httpListening, httpRoutes } from './hooks';
export { createApp, collectRoutes, type MountedRoute } from './http/app';
export { startServer, type RunningServer } from './http/server';
export { createLogger, SECRET_KEYS } from './log';
export { checkDepth, DEFAULT_LIMITS, limitExceeded, parseJsonWithin, type Limits } from './limits';
export { kernelMetrics, type Metrics } from './metrics';
export { createSecretBox, generateKey, keySpec, SecretBox, type KeySource, type SecretKey } from './secrets';
export { onEmbeddedNotification } from './shared-engine';
export type {
  AuthRequest,
  CliCommand,
  CliContext,
  CredentialResult,
  RawResponse,
  Renderer,
  RouteDefinition,
} from './types';
