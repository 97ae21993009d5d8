/**
 * A chained `get` over many parent rows whose params differ only in one foreign-key filter runs as one
 * `get` with `IN` for all of them, split back per parent (limit and offset applied per parent, as the
 * per-row calls would). Anything it cannot batch returns undefined, and the per-row path runs instead.
 */
import type { EntityRegistry } from '../entity-core';
import type { Chain } from './chains';
import { envelope, rowsOf } from './envelope';
import { optionOf } from './service';
import { truthy } from './params';
import type { Api3Request } from './types';

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

export async function batchedGet(
  callApi3: (req: Api3Request) => Promise<unknown>,
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
    result = await callApi3({ ...req, entity: chain.entity, action: 'get', params: batchParams });
  } catch {
    return undefined; // let the per-row path produce the reference's exact error
  }
  const all = rowsOf(result, 'get');
  const groups = new Map<string, Array<Record<string, unknown>>>();
  for (const row of all) {
    const k = String(row[field.name] ?? row[key]);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k)!.push(row);
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
