/**
 * Row rules of OAuthContactToken (reference §6.3), answered through entity-core's `entity.access`:
 * `manage all OAuth contact tokens` → the contacts the caller may view (or edit, for writes);
 * `manage my OAuth contact tokens` → only the caller's own contact (and only if contact access allows it);
 * neither → none.
 */
import { holds, type Principal } from '../../kernel';
import type { RowAccess } from '../entity-core';
import { contactRowAccess } from '../users';
import { P } from './permissions';

export function contactTokenAccess(
  entity: string,
  operation: 'view' | 'edit' | 'delete' | 'create',
  principal: Pick<Principal, 'contactId' | 'permissions'>,
): RowAccess | undefined {
  if (entity !== 'OAuthContactToken') return undefined;
  const contactOp = operation === 'view' ? 'view' : 'edit';
  const contact = contactRowAccess('Contact', contactOp, principal) ?? 'none';
  if (holds(P.ALL_CONTACT_TOKENS, principal.permissions)) return contact;
  if (holds(P.MY_CONTACT_TOKENS, principal.permissions)) {
    if (!principal.contactId) return 'none';
    const mine = principal.contactId;
    if (contact === 'all' || (contact !== 'none' && contact.contactIds.includes(mine))) return { contactIds: [mine] };
    return 'none';
  }
  return 'none';
}
