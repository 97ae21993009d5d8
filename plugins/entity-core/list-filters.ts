/**
 * List conditions: the size limit of IN lists, and the APIv3 "which of these" filters Contact.get takes
 * beside its fields (`group`, `tag`): one id or name, a list, a comma-separated string, or `{IN: [...]}` /
 * `{'=': x}`. Each item becomes a condition on the membership row: an id matches the id field, anything
 * else the name (or title) fields over the FK.
 */
import { limitExceeded } from '../../host';
import type { Condition } from './conditions';
import { present } from './session';

/** The items asked for, or null when the value is an operator this filter does not take. */
export function listFilterItems(value: unknown): unknown[] | null {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const [op, operand] = Object.entries(value as Record<string, unknown>)[0] ?? [];
    if (!op || !['IN', '='].includes(op.toUpperCase())) return null;
    return (Array.isArray(operand) ? operand : [operand]).filter(present);
  }
  if (typeof value === 'string' && value.includes(',')) return value.split(',').filter(present);
  return (Array.isArray(value) ? value : [value]).filter(present);
}

/** One condition per item: `idPath = n` for digits, else any of `namePaths` equal to the text. */
export function listFilterConditions(items: unknown[], idPath: string, namePaths: string[]): Condition[] {
  return items.map((item) =>
    /^\d+$/.test(String(item).trim())
      ? { path: idPath, op: '=', value: Number(item) }
      : { or: namePaths.map((path): Condition => ({ path, op: '=', value: String(item) })) },
  );
}

/** Refuses an `IN` list longer than `max` (`limits.inList`), before any SQL is built. */
export function checkInLists(where: Condition[] | undefined, max: number): void {
  const stack = [...(where ?? [])];
  while (stack.length) {
    const cond = stack.pop()!;
    if ('or' in cond) stack.push(...cond.or);
    else if ('and' in cond) stack.push(...cond.and);
    else if ('not' in cond) stack.push(cond.not);
    else if ('exists' in cond) stack.push(...(cond.exists.where ?? []));
    else if ((cond.op === 'IN' || cond.op === 'NOT IN') && Array.isArray(cond.value) && cond.value.length > max)
      throw limitExceeded(
        `${cond.value.length} values in one ${cond.op} list; at most ${max} (limits.inList)`,
        'inList',
        max,
      );
  }
}
