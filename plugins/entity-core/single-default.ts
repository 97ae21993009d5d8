/**
 * "One default per kind": after a row is saved as the default, the other rows of its kind stop being it, in
 * the same transaction (MailingComponent per component type, FinancialAccount per account type, as the
 * reference does in their BAOs).
 */
import type { EntityLifecycle } from './types';

/** A lifecycle for `entity`: a row saved with `flag` set clears it on the rows with the same `kindField`. */
export function singleDefault(entity: string, kindField: string, flag = 'is_default'): EntityLifecycle {
  return {
    async afterSave(row, sc) {
      if (!row[flag]) return;
      const others = await sc.entities.get(entity, {
        where: [
          { path: kindField, op: '=', value: row[kindField] },
          { path: flag, op: '=', value: true },
          { path: 'id', op: '<>', value: row.id },
        ],
        select: ['id'],
      });
      for (const other of others) await sc.entities.save(entity, { id: other.id, [flag]: false });
    },
  };
}
