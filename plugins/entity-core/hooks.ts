/** Hooks entity-core owns. */
import { defineHook, type Principal } from '../../kernel';

/** Which rows a principal may touch: every row, none, or those owned by these contacts. */
export type RowAccess = 'all' | 'none' | { contactIds: number[] };

export const entityAccess = defineHook.bail<
  RowAccess,
  [{ entity: string; operation: 'view' | 'edit' | 'delete' | 'create'; principal: Principal }]
>(
  'entity.access',
  'Per read and write of an entity with an owner field: answer all, none or {contactIds}; no answer means all',
);
