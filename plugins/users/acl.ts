/**
 * Contact row access from the contact permissions, as a pure function. The entity layer's
 * `entity.access` bail hook calls it (tapped in register.ts) for Contact and the entities it owns.
 *
 * | operation | all contacts | only the caller's own contact |
 * |---|---|---|
 * | view | `view all contacts` or `edit all contacts` | `view my contact` or `edit my contact` |
 * | edit | `edit all contacts` | `edit my contact` |
 * | delete | `delete contacts` + the edit rule | — (`delete contacts` + `edit my contact`) |
 * | create | `add contacts` | — |
 *
 * `'*'` holds every permission. The store asks only about contact-owned entities (those with an
 * `ownerField`); for a contact's child records (Email, Phone…) reading follows the view rule and any
 * write needs the edit rule on the owning contact.
 */
import { holds, type Principal } from '../../kernel';

export type RowAccess = 'all' | 'none' | { contactIds: number[] };
export type RowOperation = 'view' | 'edit' | 'delete' | 'create';

export function contactRowAccess(
  entity: string,
  operation: RowOperation,
  principal: Pick<Principal, 'contactId' | 'permissions'>,
): RowAccess | undefined {
  const has = (p: string) => holds(p, principal.permissions);
  const mine: RowAccess = principal.contactId ? { contactIds: [principal.contactId] } : 'none';
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
