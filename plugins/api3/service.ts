/**
 * The `api3` service: one APIv3 call as `civicrm_api3()` runs it — name normalisation, the kernel
 * pipeline, `options.force_rollback`, and chaining (§3.5), with chained gets over a foreign key batched
 * into one query for all parent rows.
 */
import type { Knex } from 'knex';
import { KernelError, isKernelError, type Api } from '../../kernel';
import { normaliseAction, normaliseEntity } from './naming';
import type { EntityRegistry } from '../entity-core';
import { snake } from '../entity-core';
import { OPERATORS } from '../entity-core';
import { envelope, rowsOf } from './envelope';
import { toApi3Error } from './errors';
import type { Api3Request, Api3Service } from './types';

interface Chain {
  key: string;
  entity: string;
  action: string;
  spec: unknown;
}

const NO_CHAIN_ACTIONS = new Set(['getfields', 'getfield', 'getoptions']);
const BLACKLIST = new Set(['api.has_parent', 'api_params']);

export { snake };

function truthy(v: unknown): boolean {
  return v !== undefined && v !== null && v !== false && v !== 0 && v !== '0' && v !== '' && v !== 'false';
}

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

/** Splits chain params (`api.<Entity>[.<action>[.<suffix>]]`, `api_…`) from the rest. */
export function splitChains(
  params: Record<string, unknown>,
  entity: string,
  action: string,
): { params: Record<string, unknown>; chains: Chain[] } {
  const rest: Record<string, unknown> = {};
  const chains: Chain[] = [];
  for (const [key, value] of Object.entries(params)) {
    const isChainKey =
      (key.startsWith('api.') || key.startsWith('api_')) &&
      !BLACKLIST.has(key) &&
      !(entity === 'Contact' && key === 'api_key') &&
      ((value !== null && typeof value === 'object') || value === 1 || value === '1');
    if (!isChainKey) {
      rest[key] = value;
      continue;
    }
    const parts = key.slice(4).split(key[3]);
    chains.push({ key, entity: normaliseEntity(parts[0]), action: normaliseAction(parts[1] || action), spec: value });
  }
  return { params: rest, chains };
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
          params: Object.fromEntries(
            Object.entries(input.params ?? {}).filter(
              ([k, v]) => !FORMAT_KEYS.has(k) && !(k === 'format' && v && typeof v === 'object'),
            ),
          ),
        };
        try {
          const r = (await service.call(inner)) as { id?: unknown } | null;
          return fmt.isSuccess ? 1 : r && typeof r === 'object' ? r.id : r;
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
          await runChainsFor(result, entity, action, chains, req);
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
          await runChainsFor(result, entity, action, chains, { ...req, db: trx });
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

  async function runChainsFor(
    result: unknown,
    parentEntity: string,
    parentAction: string,
    chains: Chain[],
    req: Api3Request,
  ): Promise<void> {
    const rows = rowsOf(result, parentAction);
    if (!rows.length) return;
    for (const chain of chains) {
      const specs = Array.isArray(chain.spec) ? (chain.spec as unknown[]) : [chain.spec];
      const isList = Array.isArray(chain.spec);
      const perSpec: unknown[][] = rows.map(() => []);
      for (const spec of specs) {
        const base = spec && typeof spec === 'object' ? (spec as Record<string, unknown>) : {};
        const perRow = rows.map((row) => subParams(parentEntity, chain.entity, row, base));
        const outs = await callMany(chain, perRow, req);
        outs.forEach((o, i) => perSpec[i].push(o));
      }
      rows.forEach((row, i) => {
        row[chain.key] = isList ? perSpec[i] : perSpec[i][0];
      });
    }
  }

  /** Runs one chained call per parent row, or one batched `get` for all of them when only an FK filter differs. */
  async function callMany(chain: Chain, perRow: Record<string, unknown>[], req: Api3Request): Promise<unknown[]> {
    const batched = perRow.length > 1 && chain.action === 'get' ? await tryBatch(chain, perRow, req) : undefined;
    if (batched) return batched;
    const outs: unknown[] = [];
    for (const p of perRow) outs.push(await subCall(chain, p, req));
    return outs;
  }

  async function subCall(chain: Chain, params: Record<string, unknown>, req: Api3Request): Promise<unknown> {
    try {
      return await service.call({ ...req, entity: chain.entity, action: chain.action, params });
    } catch (err) {
      const e = isKernelError(err) ? err : toApi3Error(err, chain.entity, chain.action);
      const {
        error_code: _c,
        entity: _e,
        action: _a,
        api3Shape: _s,
        ...extras
      } = (e.details ?? {}) as Record<string, unknown>;
      throw new KernelError('E_API3_CHAINED', `Error in call to ${chain.entity}_${chain.action} : ${e.message}`, {
        details: { ...extras, error_code: 'chained_api_failed' },
        cause: e,
      });
    }
  }

  async function tryBatch(
    chain: Chain,
    perRow: Record<string, unknown>[],
    req: Api3Request,
  ): Promise<unknown[] | undefined> {
    const registry = req.scope.cradle.entities as EntityRegistry | undefined;
    const def = registry?.find(chain.entity);
    if (!def) return undefined;
    // Unknown filter keys are ignored by get anyway; drop them so the rows differ only where it matters.
    const cleaned = perRow.map((p) =>
      Object.fromEntries(Object.entries(p).filter(([k]) => registry!.fieldFor(def, k) || !isFilterLike(k))),
    );
    const keys = new Set(cleaned.flatMap((p) => Object.keys(p)));
    const varying = [...keys].filter((k) => new Set(cleaned.map((p) => JSON.stringify(p[k]))).size > 1);
    if (varying.length !== 1) return undefined;
    const key = varying[0];
    const field = registry!.fieldFor(def, key);
    if (!field || key.startsWith('api.') || key.startsWith('api_')) return undefined;
    const vals = cleaned.map((p) => p[key]);
    if (vals.some((v) => v === null || v === undefined || typeof v === 'object')) return undefined;
    const first = cleaned[0];
    if (optionOf(first, 'is_count')) return undefined;
    const limitRaw = optionOf(first, 'limit') ?? first.rowCount;
    const limit = limitRaw === undefined ? 25 : Number(limitRaw) || 0;
    const offset = Number(optionOf(first, 'offset') ?? first.offset ?? 0) || 0;
    const sequential = truthy(first.sequential);
    const ret = first.return;
    let retList: string[] | undefined;
    if (typeof ret === 'string') retList = ret.replace(/\s/g, '').split(',').filter(Boolean);
    else if (Array.isArray(ret)) retList = ret.map(String);
    const addedKey = retList && field.name !== 'id' && !retList.includes(key) && !retList.includes(field.name);
    const options = {
      ...(typeof first.options === 'object' && first.options ? (first.options as object) : {}),
      limit: 0,
      offset: 0,
    };
    const batchParams: Record<string, unknown> = {
      ...first,
      [key]: { IN: [...new Set(vals)] },
      sequential: 1,
      options,
    };
    delete batchParams.rowCount;
    delete batchParams.offset;
    delete batchParams.option_limit;
    delete batchParams['option.limit'];
    delete batchParams.option_offset;
    delete batchParams['option.offset'];
    if (retList) batchParams.return = addedKey ? [...retList, field.name] : retList;
    let result: unknown;
    try {
      result = await service.call({ ...req, entity: chain.entity, action: 'get', params: batchParams });
    } catch {
      return undefined; // let the per-row path produce the reference's exact error
    }
    const all = rowsOf(result, 'get');
    const groups = new Map<string, Array<Record<string, unknown>>>();
    for (const r of all) {
      const k = String(r[field.name] ?? r[key]);
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k)!.push(r);
    }
    return vals.map((v) => {
      let rows = groups.get(String(v)) ?? [];
      rows = rows.slice(offset, limit ? offset + limit : undefined);
      if (addedKey)
        rows = rows.map((r) => {
          const c = { ...r };
          delete c[field.name];
          return c;
        });
      return envelope(rows, { sequential });
    });
  }

  return service;
}

function isFilterLike(k: string): boolean {
  return (
    !['options', 'sequential', 'return', 'rowCount', 'offset', 'sort', 'debug'].includes(k) &&
    !k.startsWith('option.') &&
    !/^option_(limit|offset|sort)$/.test(k) &&
    !k.startsWith('api.') &&
    !k.startsWith('api_') &&
    !k.startsWith('return.')
  );
}

/** The defaults a chained call gets from its parent row (§3.5), then the caller's params with `$value.` substituted. */
function subParams(
  parentEntity: string,
  subEntity: string,
  row: Record<string, unknown>,
  spec: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const parentSnake = snake(parentEntity);
  const subSnake = snake(subEntity);
  const id = row.id;
  if (subEntity !== 'Contact') {
    out.entity_id = id;
    out.entity_table = `civicrm_${parentSnake}`;
    out[`${parentSnake}_id`] = id;
  }
  if (row[`${subSnake}_id`] !== undefined && parentEntity !== 'Contact') out.id = row[`${subSnake}_id`];
  if (row.entity_table !== undefined && row.entity_table === `civicrm_${subSnake}`) out.id = row.entity_id;
  if (parentEntity === subEntity) out.id = id;
  out.sequential = 1;
  // Nested chains keep their `$value.` for their own parent rows.
  for (const [k, v] of Object.entries(spec))
    out[k] = k.startsWith('api.') || k.startsWith('api_') ? v : substitute(v, row);
  return out;
}

function resolvePath(row: Record<string, unknown>, path: string): unknown {
  // Paths may step into chained keys that contain dots (`api.Email.get.values.0.id`): try the longest key first.
  const parts = path.split('.');
  let cur: unknown = row;
  let i = 0;
  while (i < parts.length) {
    if (cur === null || typeof cur !== 'object') return null;
    let matched = false;
    for (let j = parts.length; j > i; j--) {
      const k = parts.slice(i, j).join('.');
      if (k in (cur as Record<string, unknown>)) {
        cur = (cur as Record<string, unknown>)[k];
        i = j;
        matched = true;
        break;
      }
    }
    if (!matched) return null;
  }
  return cur ?? null;
}

function substitute(v: unknown, row: Record<string, unknown>): unknown {
  if (typeof v === 'string' && v.startsWith('$value.')) return resolvePath(row, v.slice(7));
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const entries = Object.entries(v as Record<string, unknown>);
    if (
      entries.length &&
      (OPERATORS as readonly string[]).includes(entries[0][0]) &&
      typeof entries[0][1] === 'string' &&
      (entries[0][1] as string).startsWith('$value.')
    ) {
      const val = resolvePath(row, (entries[0][1] as string).slice(7));
      return { ...(v as object), [entries[0][0]]: val ?? '' };
    }
  }
  return v;
}
