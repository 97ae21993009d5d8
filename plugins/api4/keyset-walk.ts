/**
 * Reading every row of a get in keyset pages (rest-api4's streamed get, import-export's `crm export`). A read
 * is ordered by its sort, then by `t.id` ascending (entity-core appends it), with PostgreSQL's NULL placement
 * (last ascending, first descending), so a walk by one sort field goes through two phases: its values, `(field,
 * id)` after the last row's, and its NULLs, by id. Each page's condition is a range on the field
 * (`field >= v`), which an index on it can serve. The pages are the rows of the one read, in its order.
 */
type Row = Record<string, unknown>;
export type SortDir = 'ASC' | 'DESC';

/** How a get is walked: by `id`, or by one field of the entity then id. */
export interface Keyset {
  field: string;
  dir: SortDir;
}

/**
 * Sort fields a walk may compare (APIv4 `getFields` data types): their values come back from a read exactly as
 * stored (a timestamp's fraction of a second or a float's last digits would not, and `field = v` would miss rows).
 */
const WALKABLE = new Set(['String', 'Text', 'Integer', 'Date']);

/**
 * Whether `field` can order a walk: a plain field name (no path, no suffix) that `getFields` (the caller's
 * APIv4 call, with its own principal) describes as a column of a walkable type.
 */
export async function walkableSort(
  field: string,
  getFields: (params: Row) => Promise<{ values: unknown[] }>,
): Promise<boolean> {
  if (!/^[a-z][a-z0-9_]*$/i.test(field)) return false;
  const found = await getFields({ where: [['name', '=', field]], select: ['name', 'type', 'data_type'] });
  const spec = found.values[0] as Row | undefined;
  return spec?.type === 'Field' && WALKABLE.has(String(spec.data_type));
}

/** Where a walk is: in a field's values or its NULLs, after which row (none: the phase's start). */
interface WalkState {
  phase: 'values' | 'nulls';
  last?: { value: unknown; id: number };
}

function stateAfter(keyset: Keyset, row: Row): WalkState {
  const value = row[keyset.field];
  return { phase: value === null || value === undefined ? 'nulls' : 'values', last: { value, id: Number(row.id) } };
}

/** After a short page: the next phase of a field sort (NULLs after the values ascending, before descending). */
function nextPhase(keyset: Keyset, state: WalkState): WalkState | undefined {
  if (keyset.field === 'id') return undefined;
  const first = keyset.dir === 'ASC' ? 'values' : 'nulls';
  return state.phase === first ? { phase: first === 'values' ? 'nulls' : 'values' } : undefined;
}

/** The APIv4 condition that reads the rows after the state's last row, in its phase. */
function pageCondition(keyset: Keyset, state: WalkState): unknown[] {
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

/**
 * The pages of a walk: `read` answers one page (at most `size` rows, each with `id` and the sort field) after
 * the given condition (none for the first page, which the caller's own offset applies to). A short first page
 * is the whole result.
 */
export async function* keysetPages(
  keyset: Keyset,
  size: number,
  read: (after: unknown[] | undefined) => Promise<Row[]>,
): AsyncGenerator<Row[]> {
  let state: WalkState | undefined;
  let first = true;
  do {
    const page = await read(state && pageCondition(keyset, state));
    if (page.length === size) state = stateAfter(keyset, page[page.length - 1]);
    else state = first ? undefined : nextPhase(keyset, state!);
    first = false;
    if (page.length) yield page;
  } while (state);
}
