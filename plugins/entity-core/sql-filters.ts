/** One filter as SQL, on a column the planner resolved from metadata; every value a bound parameter. */
import type { Knex } from 'knex';
import type { Filter } from './conditions';
import type { FieldDef } from './types';
import { isText, toDbValue } from './values';

/** Escapes LIKE wildcards so a CONTAINS needle matches literally. */
function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

export function applyFilter(qb: Knex.QueryBuilder, column: string, field: FieldDef, filter: Filter): void {
  const dbValue = (value: unknown) => toDbValue(field, value) as Knex.Value;
  const list = () => (filter.value as unknown[]).map(dbValue);
  const text = isText(field);
  if (field.serialize === 'json' && ['=', 'LIKE', 'CONTAINS', 'NOT CONTAINS'].includes(filter.op)) {
    // A JSON list holds the item: jsonb containment, one bound list per item.
    const items = Array.isArray(filter.value) ? filter.value : [filter.value];
    const test = (sub: Knex.QueryBuilder) => {
      for (const item of items) sub.whereRaw('??::jsonb @> ?::jsonb', [column, JSON.stringify([String(item)])]);
    };
    if (filter.op === 'NOT CONTAINS') qb.where((sub) => sub.whereNull(column).orWhereNot(test));
    else qb.where(test);
    return;
  }
  if (field.serialize && (filter.op === '=' || filter.op === 'LIKE')) {
    qb.where(column, 'like', `%\x01${String(filter.value)}\x01%`);
    return;
  }
  switch (filter.op) {
    case '=':
      qb.where(column, '=', dbValue(filter.value));
      break;
    case '!=':
    case '<>':
      qb.where(column, '<>', dbValue(filter.value));
      break;
    case '>':
    case '>=':
    case '<':
    case '<=':
      qb.where(column, filter.op, dbValue(filter.value));
      break;
    // The reference runs on MySQL, whose LIKE ignores case: so does ours. `lower(col) LIKE lower(?)`
    // rather than ILIKE, so a `lower(col) text_pattern_ops` index serves prefix searches.
    // Non-text columns are compared as text (MySQL does that implicitly).
    case 'LIKE':
      qb.whereRaw(text ? 'lower(??) like lower(?)' : 'lower(??::text) like lower(?)', [column, String(filter.value)]);
      break;
    case 'NOT LIKE':
      qb.whereRaw(text ? 'not (lower(??) like lower(?))' : 'not (lower(??::text) like lower(?))', [
        column,
        String(filter.value),
      ]);
      break;
    case 'IN':
      qb.whereIn(column, list());
      break;
    case 'NOT IN':
      qb.whereNotIn(column, list());
      break;
    case 'BETWEEN':
      qb.whereBetween(column, list() as [Knex.Value, Knex.Value]);
      break;
    case 'NOT BETWEEN':
      qb.whereNotBetween(column, list() as [Knex.Value, Knex.Value]);
      break;
    case 'IS NULL':
      qb.whereNull(column);
      break;
    case 'IS NOT NULL':
      qb.whereNotNull(column);
      break;
    case 'IS EMPTY':
      qb.where((sub) => {
        sub.whereNull(column);
        if (text || field.serialize) sub.orWhere(column, '=', '');
      });
      break;
    case 'IS NOT EMPTY':
      qb.whereNotNull(column);
      if (text || field.serialize) qb.where(column, '<>', '');
      break;
    case 'CONTAINS':
    case 'NOT CONTAINS':
      applyContains(qb, column, field, filter);
      break;
  }
}

/** Serialized fields: the value is one item of the list; other fields: a substring (case-insensitive, as MySQL). */
function applyContains(qb: Knex.QueryBuilder, column: string, field: FieldDef, filter: Filter): void {
  const items = Array.isArray(filter.value) ? filter.value : [filter.value];
  const test = (sub: Knex.QueryBuilder) => {
    for (const item of items) {
      if (field.serialize) sub.where(column, 'like', `%\x01${likeEscape(String(item))}\x01%`);
      else sub.whereRaw('??::text ilike ?', [column, `%${likeEscape(String(item))}%`]);
    }
  };
  if (filter.op === 'CONTAINS') qb.where(test);
  else qb.where((sub) => sub.whereNull(column).orWhereNot(test));
}
