/** Row helpers of the APIv4 translator: wire typing, in-memory filters for metadata rows, chain substitution. */
import { isList, type FieldDef, type OptionItem } from '../entity-core';
import { optionText, type Suffix } from './suffixes';
import { invalid, mayRead } from './params';
import type { Row } from './types';
import type { Reader } from './base';

/** `select` over metadata rows (getFields, getActions): only the named properties. */
export function pick(rows: Row[], select: unknown): Row[] {
  const keys = Array.isArray(select) ? (select as string[]) : [];
  if (!keys.length) return rows;
  return rows.map((r) =>
    Object.fromEntries(keys.filter((k) => Object.prototype.hasOwnProperty.call(r, k)).map((k) => [k, r[k]])),
  );
}

/** `where` over metadata rows, in memory: `=`, `!=`, `<>`, `IN`, `NOT IN`, `LIKE`, `IS NULL`, `IS NOT NULL`, and groups. */
export function filterRows(rows: Row[], where: unknown): Row[] {
  if (where === undefined || where === null) return rows;
  if (!Array.isArray(where)) throw invalid('Parameter "where" must be a list of clauses');
  const test = (row: Row, clause: unknown, depth: number): boolean => {
    if (depth > 16) throw invalid('Where clauses nested too deep');
    if (!Array.isArray(clause) || typeof clause[0] !== 'string')
      throw invalid(`Invalid where clause ${JSON.stringify(clause)?.slice(0, 100)}`);
    const [head, op, value] = clause as [string, unknown, unknown];
    if (head === 'OR' || head === 'AND' || head === 'NOT') {
      if (!Array.isArray(op)) throw invalid(`${head} group needs a list of clauses`);
      const results = op.map((c) => test(row, c, depth + 1));
      return head === 'OR' ? results.some(Boolean) : head === 'AND' ? results.every(Boolean) : !results.every(Boolean);
    }
    const cellValue = Object.prototype.hasOwnProperty.call(row, head) ? row[head] : null;
    const operator = typeof op === 'string' ? op.toUpperCase() : '';
    switch (operator) {
      case '=':
        return cellValue === value || (cellValue !== null && value !== null && String(cellValue) === String(value));
      case '!=':
      case '<>':
        return !(cellValue === value || (cellValue !== null && value !== null && String(cellValue) === String(value)));
      case 'IN':
      case 'NOT IN': {
        if (!Array.isArray(value)) throw invalid(`Operator ${operator} needs a list`);
        const hit = value.some((x) => String(x) === String(cellValue));
        return operator === 'IN' ? hit : !hit;
      }
      case 'LIKE': {
        if (typeof value !== 'string') throw invalid('Operator LIKE needs a string');
        const re = new RegExp(
          `^${value
            .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
            .replace(/%/g, '.*')
            .replace(/_/g, '.')}$`,
          'is',
        );
        return cellValue !== null && re.test(String(cellValue));
      }
      case 'IS NULL':
        return cellValue === null || cellValue === undefined;
      case 'IS NOT NULL':
        return cellValue !== null && cellValue !== undefined;
      default:
        throw invalid(`Illegal operator ${JSON.stringify(op)} for ${head}`);
    }
  };
  return rows.filter((r) => where.every((c) => test(r, c, 0)));
}

/** Option ids are typed like their field (APIv4 returns integer ids for Int fields). */
export function optionId(f: FieldDef, value: string): unknown {
  return f.type === 'Int' && /^-?\d+$/.test(value) ? Number(value) : value;
}

/** A stored value in APIv4's JSON types. */
export function typed(f: FieldDef, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (isList(f)) return Array.isArray(v) ? v : [v];
  switch (f.type) {
    case 'Boolean':
      return v === true || v === 1 || v === '1' || v === 't';
    case 'Int':
      return typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
    case 'Float':
    case 'Money':
      return typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
    default:
      return v;
  }
}

/** The `$field` references in a chain's params (not in nested chains, which refer to their own rows). */
export function chainRefs(chain: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string' && /^\$[A-Za-z_][\w.]*$/.test(v)) out.push(v.slice(1));
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v as Row)) if (k !== 'chain') walk(x);
  };
  if (chain && typeof chain === 'object')
    for (const spec of Object.values(chain as Row)) if (Array.isArray(spec)) walk(spec[2]);
  return out;
}

/** `$id`, `$contact_id`, `$contact_id.display_name`: values of the parent row. */
export function substitute(value: unknown, row: Row): unknown {
  if (typeof value === 'string' && /^\$[A-Za-z_][\w.]*$/.test(value)) {
    const key = value.slice(1);
    if (key in row) return row[key];
    let cur: unknown = row;
    for (const part of key.split('.')) {
      if (!cur || typeof cur !== 'object') return value;
      cur = (cur as Row)[part];
    }
    return cur === undefined ? value : cur;
  }
  if (Array.isArray(value)) return value.map((x) => substitute(x, row));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Row).map(([k, x]) => [k, k === 'chain' ? x : substitute(x, row)]),
    );
  return value;
}

/**
 * `index`: a field name keys the values by it; an integer picks one row (null when absent); an object
 * `{key: value}` maps each row's `key` field to its `value` field (`{"id": "display_name"}`).
 */
export function applyIndex(values: Row[], index: unknown): unknown {
  if (index === undefined || index === null || index === '') return values;
  if (typeof index === 'number' || (typeof index === 'string' && /^\d+$/.test(index)))
    return values[Number(index)] ?? null;
  const pair = indexPair(index);
  // No prototype: a stored value `__proto__` is just a key.
  const out: Row = Object.create(null);
  if (pair) for (const r of values) out[String(r[pair[0]])] = r[pair[1]] ?? null;
  else if (typeof index === 'string') for (const r of values) out[String(r[index])] = r;
  else throw invalid('index must be a field name, an integer or an object {key: value}');
  return out;
}

/** The `[key, value]` fields of an object index, or undefined for any other index. */
export function indexPair(index: unknown): [string, string] | undefined {
  if (!index || typeof index !== 'object' || Array.isArray(index)) return undefined;
  const entries = Object.entries(index as Row);
  if (entries.length !== 1 || typeof entries[0][1] !== 'string' || !entries[0][0])
    throw invalid('index must be a field name, an integer or an object {key: value}');
  return [entries[0][0], entries[0][1]];
}

/** The fields an index reads (a get whose `select` omits them fetches them, then drops them). */
export function indexFields(index: unknown): string[] {
  if (typeof index === 'string' && !/^\d+$/.test(index) && index) return [index];
  return indexPair(index) ?? [];
}

/**
 * Rows read as arrays (in the order of `paths`) as APIv4 shows them: JSON types, each column the reader may
 * see (secrets only with their permission). What may be read is decided once per column, not per value.
 */
export function shownRows(
  fieldsByPath: Map<string, FieldDef>,
  paths: string[],
  rows: unknown[][],
  ctx: Reader,
  derived: { hidden?: Set<string>; columns?: DerivedColumn[] } = {},
): Row[] {
  const shown: Array<{ path: string; field: FieldDef; index: number }> = [];
  const bases = new Map<string, { field: FieldDef; index: number }>();
  paths.forEach((path, index) => {
    const field = fieldsByPath.get(path);
    if (!field || !mayRead(field, ctx.principal, ctx.trusted)) return;
    bases.set(path, { field, index });
    if (!derived.hidden?.has(path)) shown.push({ path, field, index });
  });
  const columns = (derived.columns ?? []).map((column) => ({ ...column, base: bases.get(column.base) }));
  // Each row is made once, in its final key order: deleting a key afterwards would put the object in V8's slow
  // dictionary mode (and every later read of it, JSON.stringify's included, would pay for it).
  return rows.map((values) => {
    const row: Row = {};
    for (const { path, field, index } of shown) row[path] = typed(field, values[index]);
    for (const { key, base, suffix, options } of columns)
      row[key] = optionText(options, suffix, base ? typed(base.field, values[base.index]) : undefined);
    return row;
  });
}

/** A `:label`-style column: the option text of another column's stored value. */
export interface DerivedColumn {
  key: string;
  base: string;
  suffix: Suffix;
  options: OptionItem[];
}
