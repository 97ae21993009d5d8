/**
 * Contact row access from the contact permissions, as a pure function. The entity layer's `entity.access`
 * hook asks {@link contactRowRule} (tapped in register.ts) for Contact and the entities it owns.
 *
 * | operation | all contacts | only the caller's own contact |
 * |---|---|---|
 * | view | `view all contacts` or `edit all contacts` | `view my contact` or `edit my contact` |
 * | edit | `edit all contacts` | `edit my contact` |
 * | delete | `delete contacts` + the edit rule | — (`delete contacts` + `edit my contact`) |
 * | create | `add contacts` | — |
 *
 * `'*'` holds every permission. Only contact-owned entities (those with an `ownerField`) are concerned; for
 * a contact's child records (Email, Phone…) reading follows the view rule and any write needs the edit rule
 * on the owning contact. Other rules (e.g. OAuth contact tokens) narrow these answers further: every
 * answer to `entity.access` must hold.
 */
import { holds, type Principal } from '../../kernel';
import type { RowAccess, RowAccessQuery, RowOperation } from '../entity-core';

/** The contacts a principal may touch: every one, none, or these. */
export type ContactAccess = 'all' | 'none' | { contactIds: number[] };
export type { RowOperation };

/**
 * The `entity.access` rule for every entity with an owner field: its rows as conditions on that field (the
 * owning contact's id). Entities without one are not contact data: this rule abstains.
 */
export function contactRowRule({ entity, ownerField, operation, principal }: RowAccessQuery): RowAccess | undefined {
  if (!ownerField) return undefined;
  const access = contactRowAccess(entity, operation, principal);
  if (access === 'all' || access === 'none') return access;
  return { where: [{ path: ownerField, op: 'IN', value: access.contactIds }] };
}

export function contactRowAccess(
  entity: string,
  operation: RowOperation,
  principal: Pick<Principal, 'contactId' | 'permissions'>,
): ContactAccess {
  const has = (p: string) => holds(p, principal.permissions);
  const mine: ContactAccess = principal.contactId ? { contactIds: [principal.contactId] } : 'none';
  // A contact's own records (emails, phones…) are read with the contact and written by editing it.
  if (entity !== 'Contact') return contactRowAccess('Contact', operation === 'view' ? 'view' : 'edit', principal);
  switch (operation) {
    case 'create':
      return has('add contacts') ? 'all' : 'none';
    case 'view':
      if (has('view all contacts') || has('edit all contacts')) return 'all';
      return has('view my contact') || has('edit my contact') ? mine : 'none';
    case 'edit':
      if (has('edit all contacts')) return 'all';
      return has('edit my contact') ? mine : 'none';
    case 'delete':
      if (!has('delete contacts')) return 'none';
      return contactRowAccess(entity, 'edit', principal);
  }
}
