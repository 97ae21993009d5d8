/** Hooks the kernel itself owns and runs. Plugins tap them; see docs/hooks.md. */
import type { KernelError } from './errors';
import { defineHook } from './hooks';
import type { AuthRequest, CredentialResult, Permission, Principal, Renderer, RouteDefinition } from './types';

/** A call as seen by the api.* hooks. */
export interface ApiRequest {
  readonly version: number;
  readonly entity: string;
  readonly action: string;
  readonly principal: Principal;
  readonly permission: Permission;
  readonly params: Readonly<Record<string, unknown>>;
}

export type AuthorizeResult = 'allow' | { deny: string };

export const authCredential = defineHook.bail<CredentialResult, [AuthRequest]>(
  'auth.credential',
  'Per request on a route that accepts auth: accept a principal, reject the credential, or abstain',
);
export const authPrincipal = defineHook.waterfall<Principal, [AuthRequest]>(
  'auth.principal',
  'Per request, after auth.credential (also for anonymous callers): complete the principal, e.g. with role permissions',
);
export const apiAuthorize = defineHook.bail<AuthorizeResult, [ApiRequest]>(
  'api.authorize',
  "Per call and in kernel.can(): 'allow', {deny}, or abstain; no decision means forbidden",
);
export const apiPrepare = defineHook.waterfall<Record<string, unknown>, [ApiRequest]>(
  'api.prepare',
  'Per call, after validation: return new params (they are validated again)',
);
export const apiRespond = defineHook.waterfall<unknown, [ApiRequest]>('api.respond', 'Per call: return a new result');
export const apiException = defineHook.series<[KernelError, ApiRequest]>(
  'api.exception',
  'Per failed call: observe the error (logging, audit); it is rethrown afterwards',
);
export const httpRoutes = defineHook.collect<RouteDefinition, []>(
  'http.routes',
  'Once at ready: contribute HTTP routes',
);
export const formatRenderers = defineHook.collect<Renderer, []>(
  'format.renderers',
  'Once at ready: contribute output formats, keyed by name',
);
export const kernelReady = defineHook.series<[]>('kernel.ready', 'Once, after every plugin is ready');

/** A CLI command contributed by a plugin (`crm user add …`). The CLI boots the kernel before running it. */
export interface CliCommand {
  /** Space-separated path: `user add` becomes `crm user add`. */
  name: string;
  description: string;
  arguments?: Array<{ name: string; description: string; required?: boolean }>;
  /** Commander flags, e.g. `{ flags: '--ttl <seconds>', description: '…', default: '3600' }`. */
  options?: Array<{ flags: string; description: string; default?: string }>;
  /** Runs with the booted kernel; what it returns is printed. */
  run(
    args: string[],
    options: Record<string, unknown>,
    kernel: import('./kernel').Kernel,
  ): Promise<string | void> | string | void;
}

export const cliCommands = defineHook.collect<CliCommand, []>(
  'cli.commands',
  'Once, when the CLI starts: contribute commands',
);
