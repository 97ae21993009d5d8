/**
 * Hooks the host owns and runs: request authentication, routes, output formats, CLI commands.
 * Plugins tap them like the kernel's; docs/hooks.md lists both.
 */
import { defineHook } from '../kernel';
import type { AuthRequest, CliCommand, CredentialResult, Renderer, RouteDefinition } from './types';
import type { Principal } from '../kernel';

export * from '../kernel/core-hooks';

export const authCredential = defineHook.bail<CredentialResult, [AuthRequest]>(
  'auth.credential',
  'Per request on a route that accepts auth: accept a principal, reject the credential, or abstain',
);
export const authPrincipal = defineHook.waterfall<Principal, [AuthRequest]>(
  'auth.principal',
  'Per request, after auth.credential (also for anonymous callers): complete the principal, e.g. with role permissions',
);
export const httpRoutes = defineHook.collect<RouteDefinition, []>(
  'http.routes',
  'Once at ready: contribute HTTP routes',
);
export const formatRenderers = defineHook.collect<Renderer, []>(
  'format.renderers',
  'Once at ready: contribute output formats, keyed by name',
);
export const cliCommands = defineHook.collect<CliCommand, []>(
  'cli.commands',
  'Once, when the CLI starts: contribute commands',
);
export const httpListening = defineHook.series<[{ url: string }]>(
  'http.listening',
  'Once, when `crm serve` listens (never in CLI commands): e.g. first-run set-up that prints how to call the API',
);
