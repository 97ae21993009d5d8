/** Which gets a streamed get (streamed-get.ts) may walk in keyset pages (api4's `keysetPages`), and by what. */
import type { AwilixContainer } from 'awilix';
import type { Context } from 'koa';
import { holds, type Cradle, type Principal } from '../../kernel';
import { walkableSort, type Api4Service, type Keyset } from '../api4';

type Obj = Record<string, unknown>;

/** Params whose reads are not one row per id in id order: such a get keeps the one-call path. */
const UNPAGED = ['groupBy', 'having', 'join'];

/** A get that may be streamed: no limit (or 0), and not HEAD (answered without its body). */
export function unlimited(ctx: Context, params: Obj): boolean {
  return ctx.method !== 'HEAD' && (params.limit === undefined || params.limit === 0);
}

/**
 * The keyset of a get that may be streamed, or undefined: no limit (`limit` absent or 0), no index, no
 * grouping or explicit join (rows per id), no `row_count` or aggregate in the select, sorted by nothing, by
 * `id`, or by one plain field of a walkable type, the generic api4 get, and a caller with `administer CRM`
 * (every other caller's read is bounded by `limits.rowsPerRead` and refused past it, so it keeps the one-call
 * path, which enforces that).
 */
export async function keysetOf(
  ctx: Context,
  scope: AwilixContainer<Cradle>,
  principal: Principal,
  entity: string,
  params: Obj,
): Promise<Keyset | undefined> {
  if (!unlimited(ctx, params)) return undefined;
  if (UNPAGED.some((key) => params[key] !== undefined && params[key] !== null)) return undefined;
  if (!holds('administer CRM', principal.permissions)) return undefined;
  const select = params.select;
  if (select !== undefined && !Array.isArray(select)) return undefined;
  if (select?.some((item) => typeof item !== 'string' || item === 'row_count' || item.includes('('))) return undefined;
  const get = scope.cradle.api.actions({ version: 4, entity }).find((a) => a.action === 'get');
  if (!get?.generic || get.plugin !== 'api4') return undefined;
  if (params.orderBy === undefined || params.orderBy === null) return { field: 'id', dir: 'ASC' };
  const entries = typeof params.orderBy === 'object' ? Object.entries(params.orderBy as Obj) : [];
  const dir = entries.length === 1 ? String(entries[0][1]).toUpperCase() : '';
  if (dir !== 'ASC' && dir !== 'DESC') return undefined;
  const field = entries[0][0];
  if (field === 'id') return { field, dir };
  const svc = scope.cradle.api4 as Api4Service;
  const getFields = (fieldParams: Obj) =>
    svc.call({ entity, action: 'getFields', params: { ...fieldParams, checkPermissions: true }, principal, scope });
  return (await walkableSort(field, getFields)) ? { field, dir } : undefined;
}
