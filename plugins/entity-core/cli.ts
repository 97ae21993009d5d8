/**
 * `crm api3 …` and `crm api4 …`: any action from the command line, as the deployer (trusted: no
 * permission or row checks, like the reference's `cv api`). Each engine plugin contributes its own.
 */
import { ANONYMOUS, KernelError, type Principal } from '../../kernel';
import { type CliCommand, type CliContext } from '../../host';
import type { EngineRequest } from './types';

/** The CLI's caller: holds every permission; its calls are trusted (no authorization, no row access). */
export const CLI_PRINCIPAL: Principal = Object.freeze({
  ...ANONYMOUS,
  via: 'cli',
  flow: 'cli',
  permissions: new Set(['*']),
});

export function apiCliCommand(version: 3 | 4, service: string): CliCommand {
  return {
    name: `api${version}`,
    description:
      `Run an APIv${version} action as the deployer (no permission checks) and print the result as JSON, ` +
      `e.g. crm api${version} Contact get '{"limit":5}'`,
    arguments: [
      { name: 'entity', description: 'Entity, e.g. Contact or OAuthClient' },
      { name: 'action', description: 'Action, e.g. get, create, clientCredential' },
      { name: 'params', description: 'Params as a JSON object (default {})', required: false },
    ],
    async run(args: string[], _opts: Record<string, unknown>, cli: CliContext) {
      const [entity, action, json] = args;
      let params: Record<string, unknown>;
      try {
        params = json ? JSON.parse(json) : {};
      } catch (err) {
        throw new KernelError('E_INVALID_PARAMS', `params is not valid JSON: ${(err as Error).message}`);
      }
      if (!params || typeof params !== 'object' || Array.isArray(params))
        throw new KernelError('E_INVALID_PARAMS', 'params must be a JSON object');
      const scope = cli.api.scope('cli', CLI_PRINCIPAL);
      try {
        const api = scope.resolve<{ call(r: EngineRequest): Promise<unknown> }>(service);
        const result = await api.call({
          entity,
          action,
          params,
          principal: CLI_PRINCIPAL,
          scope,
          trusted: true,
        });
        return JSON.stringify(result, null, 2);
      } finally {
        await scope.dispose();
      }
    },
  };
}
