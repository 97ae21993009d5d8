/** Hooks the kernel itself owns and runs. Plugins tap them; see docs/hooks.md. */
import type { Knex } from 'knex';
import type { KernelError } from './errors';
import { defineHook } from './hooks';
import type { Permission, Principal } from './types';

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

export const apiAuthorize = defineHook.bail<AuthorizeResult, [ApiRequest]>(
  'api.authorize',
  "Per call and in kernel.can(): 'allow', {deny}, or abstain; no decision means forbidden",
);
export const apiPrepare = defineHook.waterfall<Record<string, unknown>, [ApiRequest]>(
  'api.prepare',
  'Per call, after validation: return new params (they are validated again)',
);
export const apiWrite = defineHook.series<[ApiRequest, Knex]>(
  'api.write',
  'Per call of a writing action, inside its transaction, before the handler: (request, transaction)',
);
export const apiRespond = defineHook.waterfall<unknown, [ApiRequest]>(
  'api.respond',
  'Per call: return a new result (a binding that writes compact JSON may get a WireJson: call value() for the structure)',
);
export const apiException = defineHook.series<[KernelError, ApiRequest]>(
  'api.exception',
  'Per failed call: observe the error (logging, audit); it is rethrown afterwards',
);
export const kernelReady = defineHook.series<[]>('kernel.ready', 'Once, after every plugin is ready');
