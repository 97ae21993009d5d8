/**
 * APIv4-style selectors of the OAuth store (`where`, `orderBy`, `limit`, `offset`) as entity-store
 * conditions and sort: fields and operators come from metadata and the operator list only.
 */
import { KernelError } from '../../kernel';
import type { CompiledEntity } from '../entity-core';
import { OPERATORS, type Condition, type Filter } from '../entity-core';

export type Row = Record<string, unknown>;
export type Where = unknown[];

export interface Selector {
  where?: Where;
  orderBy?: Record<string, string>;
  limit?: number;
  offset?: number;
}

export const isObj = (value: unknown): value is Row =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const invalid = (message: string) => new KernelError('E_INVALID_PARAMS', message);

/** `[[field, op, value], ['OR', [...]]]` → store conditions; fields and operators from metadata only. */
export function whereConditions(entity: CompiledEntity, where: Where | undefined): Condition[] {
  if (where === undefined || where === null) return [];
  if (!Array.isArray(where)) throw invalid('where must be an array of [field, operator, value] clauses');
  return where.map((item) => whereClause(entity, item));
}

function whereClause(entity: CompiledEntity, clause: unknown): Condition {
  if (!Array.isArray(clause) || typeof clause[0] !== 'string')
    throw invalid('Each where clause is [field, operator, value]');
  if (clause[0] === 'OR' && Array.isArray(clause[1])) {
    return {
      or: clause[1].map((c) => {
        const inner = whereClause(entity, c);
        if ('or' in inner) throw invalid('Nested OR is not supported here');
        return inner;
      }),
    };
  }
  const [path, rawOp, value] = clause as [string, unknown, unknown];
  const op = String(rawOp ?? '=').toUpperCase();
  if (op === 'CONTAINS') {
    const field = entity.lookup.get(path);
    if (!field?.serialize) throw invalid(`CONTAINS needs a multi-valued field; ${path} is not one`);
    return { path, op: '=', value };
  }
  if (!(OPERATORS as readonly string[]).includes(op)) throw invalid(`Illegal operator ${String(rawOp)}`);
  if ((op === 'IN' || op === 'NOT IN') && !Array.isArray(value)) throw invalid(`${op} needs an array`);
  return { path, op: op as Filter['op'], value };
}

export function orderBySort(orderBy: Selector['orderBy']): Array<{ path: string; dir: 'ASC' | 'DESC' }> {
  if (!orderBy) return [];
  if (!isObj(orderBy)) throw invalid('orderBy must be an object {field: "ASC"|"DESC"}');
  return Object.entries(orderBy).map(([path, d]) => {
    const dir = String(d).toUpperCase();
    if (dir !== 'ASC' && dir !== 'DESC') throw invalid(`orderBy direction must be ASC or DESC, not ${String(d)}`);
    return { path, dir };
  });
}
