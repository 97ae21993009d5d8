/**
 * APIv3 chaining (§3.5): `api.<Entity>[.<action>[.<suffix>]]` params run one call per parent row (or one
 * batched get), in the parent's transaction, and their results are attached to the parent rows under
 * the chain's key. A failing chained call fails the parent with `chained_api_failed`.
 */
import { KernelError, isKernelError } from '../../kernel';
import { batchedGet } from './chain-batch';
import { subParams } from './chain-params';
import { rowsOf } from './envelope';
import { toApi3Error } from './errors';
import { normaliseAction, normaliseEntity } from './naming';
import type { Api3Request } from './types';

export interface Chain {
  key: string;
  entity: string;
  action: string;
  spec: unknown;
}

export const NO_CHAIN_ACTIONS = new Set(['getfields', 'getfield', 'getoptions']);
const BLACKLIST = new Set(['api.has_parent', 'api_params']);

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

/** Runs the chains of one call for its result rows, through `callApi3` (the api3 service's own call). */
export function chainRunner(callApi3: (req: Api3Request) => Promise<unknown>) {
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
    const batched =
      perRow.length > 1 && chain.action === 'get' ? await batchedGet(callApi3, chain, perRow, req) : undefined;
    if (batched) return batched;
    const outs: unknown[] = [];
    for (const p of perRow) outs.push(await subCall(chain, p, req));
    return outs;
  }

  async function subCall(chain: Chain, params: Record<string, unknown>, req: Api3Request): Promise<unknown> {
    try {
      return await callApi3({ ...req, entity: chain.entity, action: chain.action, params });
    } catch (err) {
      const apiError = isKernelError(err) ? err : toApi3Error(err, chain.entity, chain.action);
      const {
        error_code: _c,
        entity: _e,
        action: _a,
        api3Shape: _s,
        ...extras
      } = (apiError.details ?? {}) as Record<string, unknown>;
      throw new KernelError(
        'E_API3_CHAINED',
        `Error in call to ${chain.entity}_${chain.action} : ${apiError.message}`,
        {
          details: { ...extras, error_code: 'chained_api_failed' },
          cause: apiError,
        },
      );
    }
  }

  return runChainsFor;
}
