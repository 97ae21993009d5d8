/**
 * The `api3` service: one APIv3 call as `civicrm_api3()` runs it — name normalisation, the kernel
 * pipeline, `options.force_rollback`, `format.is_success` / `format.only_id`, and the transaction a call
 * and its chains share (chaining itself: chains.ts).
 */
import type { Knex } from 'knex';
import { type Api } from '../../kernel';
import { normaliseAction, normaliseEntity } from './naming';
import { snake, type EntityRegistry } from '../entity-core';
import { truthy } from './params';
import { toApi3Error } from './errors';
import { chainRunner, NO_CHAIN_ACTIONS, splitChains } from './chains';
import type { Api3Request, Api3Service } from './types';

export { snake };

export function optionOf(params: Record<string, unknown>, name: string): unknown {
  const o = params.options;
  if (o && typeof o === 'object' && !Array.isArray(o) && name in (o as object))
    return (o as Record<string, unknown>)[name];
  return params[`option.${name}`] ?? params[`option_${name}`];
}

const FORMAT_KEYS = new Set(['format.is_success', 'format_is_success', 'format.only_id', 'format_only_id']);

function formatOptions(params: Record<string, unknown>): { isSuccess: boolean; onlyId: boolean } {
  const nested = params.format && typeof params.format === 'object' ? (params.format as Record<string, unknown>) : {};
  return {
    isSuccess: truthy(params['format.is_success'] ?? params.format_is_success ?? nested.is_success),
    onlyId: truthy(params['format.only_id'] ?? params.format_only_id ?? nested.only_id),
  };
}

/**
 * The engine's own control params (the REST binding adds `version` and `check_permissions`). An action that
 * declares its params strictly (`additionalProperties: false`, the tutorial's `Greeting.get`) never receives
 * them; permissive ones still see them, as the reference passes them along.
 */
const CONTROL_PARAMS = ['version', 'check_permissions'];
function withoutControlParams(
  kernel: Api3Pipeline,
  entity: string,
  action: string,
  params: Record<string, unknown>,
): Record<string, unknown> {
  const schema = kernel.paramsSchema(entity, action) as { additionalProperties?: unknown } | undefined;
  if (schema?.additionalProperties !== false || !CONTROL_PARAMS.some((key) => key in params)) return params;
  const rest = { ...params };
  for (const key of CONTROL_PARAMS) delete rest[key];
  return rest;
}

/**
 * What the engine needs of the kernel: the pipeline (`api.call`), the root database handle (for
 * transactions it opens itself), and an action's declared params schema.
 */
export interface Api3Pipeline {
  call: Api['call'];
  db: Knex;
  paramsSchema(entity: string, action: string): object | undefined;
}

export function createApi3Service(kernel: Api3Pipeline): Api3Service {
  const runChainsFor = chainRunner((req) => service.call(req));
  const service: Api3Service = {
    async call(input: Api3Request): Promise<unknown> {
      // A trusted call skips authorization and row access (the reference skips ACLs with check_permissions off).
      const req = input;
      const entity = normaliseEntity(req.entity);
      const action = normaliseAction(req.action);
      const split = splitChains(req.params ?? {}, entity, action);
      const { chains } = split;
      const params = withoutControlParams(kernel, entity, action, split.params);
      const forceRollback = truthy(optionOf(params, 'force_rollback'));
      const fmt = formatOptions(params);
      if (fmt.isSuccess || fmt.onlyId) {
        // format.is_success → 1/0; format.only_id → the id (§2.2). Applied around the whole call.
        const inner = {
          ...input,
          wire: undefined,
          params: Object.fromEntries(
            Object.entries(input.params ?? {}).filter(
              ([k, v]) => !FORMAT_KEYS.has(k) && !(k === 'format' && v && typeof v === 'object'),
            ),
          ),
        };
        try {
          const result = (await service.call(inner)) as { id?: unknown } | null;
          return fmt.isSuccess ? 1 : result && typeof result === 'object' ? result.id : result;
        } catch (err) {
          if (fmt.isSuccess) return 0;
          throw err;
        }
      }
      const runChains = chains.length > 0 && !NO_CHAIN_ACTIONS.has(action);
      try {
        if (!runChains) {
          const result = await kernel.call({
            version: 3,
            entity,
            action,
            params,
            principal: req.principal,
            scope: req.scope,
            db: req.db,
            trusted: req.trusted,
            rollback: forceRollback,
            wire: req.wire,
          });
          if (forceRollback) (req.scope.cradle.entities as EntityRegistry | undefined)?.invalidateOptions();
          return result;
        }
        // Reads with read-only chains need no transaction (two fewer statements per call).
        const readOnly =
          !forceRollback &&
          action.startsWith('get') &&
          chains.every((c) => c.action.startsWith('get') && !/"api[._]/.test(JSON.stringify(c.spec)));
        if (readOnly) {
          const result = await kernel.call({
            version: 3,
            entity,
            action,
            params,
            principal: req.principal,
            scope: req.scope,
            db: req.db,
            trusted: req.trusted,
          });
          // A chain's answer goes inside the parent's records: structured, never pre-rendered text.
          await runChainsFor(result, entity, action, chains, { ...req, wire: undefined });
          return result;
        }
        // The parent and its chains share one transaction: a failing chain rolls everything back.
        const outer: Knex = req.db ?? kernel.db;
        const trx = await outer.transaction();
        try {
          const result = await kernel.call({
            version: 3,
            entity,
            action,
            params,
            principal: req.principal,
            scope: req.scope,
            db: trx,
            trusted: req.trusted,
          });
          await runChainsFor(result, entity, action, chains, { ...req, db: trx, wire: undefined });
          if (forceRollback) {
            await trx.rollback();
            (req.scope.cradle.entities as EntityRegistry | undefined)?.invalidateOptions();
          } else await trx.commit();
          return result;
        } catch (err) {
          if (!trx.isCompleted()) await trx.rollback();
          throw err;
        }
      } catch (err) {
        // A rolled-back write may have refilled the option cache with rows that no longer exist.
        (req.scope.cradle.entities as EntityRegistry | undefined)?.invalidateOptions();
        throw toApi3Error(err, entity, action);
      }
    },
  };

  return service;
}
