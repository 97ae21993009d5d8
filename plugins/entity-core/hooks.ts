/** Hooks entity-core owns. */
import { defineHook, type Principal } from '../../kernel';
import type { Condition } from './conditions';

export type RowOperation = 'view' | 'edit' | 'delete' | 'create';

/**
 * Which rows of an entity a principal may touch: every row, none, or those matching conditions (on the
 * entity's own field paths; `{exists}` reaches related records).
 */
export type RowAccess = 'all' | 'none' | { where: Condition[] };

export interface RowAccessQuery {
  entity: string;
  /** The entity's owning-contact field from its metadata (`id` on Contact, `contact_id` on Email…), if any. */
  ownerField?: string;
  operation: RowOperation;
  principal: Principal;
}

export const entityAccess = defineHook.collect<RowAccess, [RowAccessQuery]>(
  'entity.access',
  'Per read and write of an entity by an untrusted caller: answer all, none or {where: conditions}; ' +
    'every answer must hold (they are AND-ed), no answer means all; answers are plain data (a compiled read ' +
    'is reused only while they are equal)',
);

/**
 * Rows a principal may reach beyond what `entity.access` allows: permissioned relationships (a contact who
 * may view or edit another), ACL groups. The answers are OR-ed together, then with the AND of `entity.access`.
 */
export const entityAccessGrants = defineHook.collect<RowAccess, [RowAccessQuery]>(
  'entity.accessGrants',
  'Per read and write of an entity by an untrusted caller: rows it may also reach (all, none or {where}); ' +
    'grants are OR-ed with the entity.access answers, so they widen access, never narrow it',
);
