/**
 * Row rules of OAuthContactToken (reference §6.3), answered through entity-core's `entity.access`. The
 * contact rule (users plugin) already limits the tokens to the contacts the caller may view (or edit, for
 * writes); this rule narrows it: `manage all OAuth contact tokens` → no further limit;
 * `manage my OAuth contact tokens` → only the caller's own contact; neither → none.
 */
import { holds, type Principal } from '../../kernel';
import type { RowAccess } from '../entity-core';
import { P } from './permissions';

export function contactTokenAccess(
  entity: string,
  principal: Pick<Principal, 'contactId' | 'permissions'>,
): RowAccess | undefined {
  if (entity !== 'OAuthContactToken') return undefined;
  if (holds(P.ALL_CONTACT_TOKENS, principal.permissions)) return 'all';
  if (holds(P.MY_CONTACT_TOKENS, principal.permissions) && principal.contactId)
    return { where: [{ path: 'contact_id', op: '=', value: principal.contactId }] };
  return 'none';
}
