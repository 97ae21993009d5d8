/**
 * What a chained call (§3.5) receives from its parent row: the reference's default keys (`entity_id`,
 * `entity_table`, `<parent>_id`, the row's own reference to the chained entity), then the caller's
 * params with `$value.<path>` replaced by the parent row's value (own keys only: `$value.constructor`
 * is null, never a prototype member).
 */
import { OPERATORS, snake } from '../entity-core';

/** The defaults a chained call gets from its parent row (§3.5), then the caller's params with `$value.` substituted. */
export function subParams(
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
  for (const [k, value] of Object.entries(spec))
    out[k] = k.startsWith('api.') || k.startsWith('api_') ? value : substitute(value, row);
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
      if (Object.hasOwn(cur as object, k)) {
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

function substitute(value: unknown, row: Record<string, unknown>): unknown {
  if (typeof value === 'string' && value.startsWith('$value.')) return resolvePath(row, value.slice(7));
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (
      entries.length &&
      (OPERATORS as readonly string[]).includes(entries[0][0]) &&
      typeof entries[0][1] === 'string' &&
      (entries[0][1] as string).startsWith('$value.')
    ) {
      const val = resolvePath(row, (entries[0][1] as string).slice(7));
      return { ...(value as object), [entries[0][0]]: val ?? '' };
    }
  }
  return value;
}
