/**
 * The keyset walk of a streamed get (streamed-get.ts): which gets may be walked, and the condition that reads
 * the page after a given row. A read is ordered by the caller's sort, then by `t.id` ascending (entity-core
 * appends it), with PostgreSQL's NULL placement (last ascending, first descending), so a walk by one sort
 * field goes through two phases: its values, `(field, id)` after the last row's, and its NULLs, by id. Each
 * page's condition is a range on the field (`field >= v`), which an index on it can serve.
 */
import type { AwilixContainer } from 'awilix';
import type { Context } from 'koa';
import { holds, type Cradle, type Principal } from '../../kernel';
import type { Api4Service } from '../api4';

type Obj = Record<string, unknown>;
export type Order = 'ASC' | 'DESC';

/** How a streamed get is walked: by `id`, or by one field of the entity then id. */
export interface Keyset {
  field: string;
  dir: Order;
}

/** Params whose reads are not one row per id in id order: such a get keeps the one-call path. */
const UNPAGED = ['groupBy', 'having', 'join'];

/**
 * Sort fields a walk may compare: their values come back from a read exactly as stored (a timestamp's
 * fraction of a second or a float's last digits would not, and `field = v` would miss rows).
 */
const WALKABLE = new Set(['String', 'Text', 'Integer', 'Date']);

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
  if (ctx.method === 'HEAD' || (params.limit !== undefined && params.limit !== 0)) return undefined;
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
  if (!/^[a-z][a-z0-9_]*$/i.test(field)) return undefined; // no path, no suffix
  const spec = await (scope.cradle.api4 as Api4Service).call({
    entity,
    action: 'getFields',
    params: { where: [['name', '=', field]], select: ['name', 'type', 'data_type'], checkPermissions: true },
    principal,
    scope,
  });
  const found = spec.values[0] as Obj | undefined;
  return found?.type === 'Field' && WALKABLE.has(String(found.data_type)) ? { field, dir } : undefined;
}

/** Where a walk is: for a field sort, in its values or in its NULLs; after which row (none: the phase's start). */
export interface WalkState {
  phase: 'values' | 'nulls';
  last?: { value: unknown; id: number };
}

/** The state after a full page ending with `row`. */
export function stateAfter(keyset: Keyset, row: Obj): WalkState {
  const value = row[keyset.field];
  const id = Number(row.id);
  return { phase: value === null || value === undefined ? 'nulls' : 'values', last: { value, id } };
}

/** After a short page: the next phase of a field sort (NULLs after the values ascending, before descending). */
export function nextPhase(keyset: Keyset, state: WalkState): WalkState | undefined {
  if (keyset.field === 'id') return undefined;
  const first = keyset.dir === 'ASC' ? 'values' : 'nulls';
  return state.phase === first ? { phase: first === 'values' ? 'nulls' : 'values' } : undefined;
}

/** The APIv4 condition that reads the rows after the state's last row, in its phase. */
export function pageCondition(keyset: Keyset, state: WalkState): unknown[] {
  const { field, dir } = keyset;
  const after = state.last;
  if (field === 'id') return ['id', dir === 'ASC' ? '>' : '<', after!.id];
  if (state.phase === 'nulls')
    return after
      ? [
          'AND',
          [
            [field, 'IS NULL'],
            ['id', '>', after.id],
          ],
        ]
      : [field, 'IS NULL'];
  if (!after) return [field, 'IS NOT NULL'];
  const [orEqual, beyond] = dir === 'ASC' ? ['>=', '>'] : ['<=', '<'];
  return [
    'AND',
    [
      [field, orEqual, after.value],
      [
        'OR',
        [
          [field, beyond, after.value],
          ['id', '>', after.id],
        ],
      ],
    ],
  ];
}
