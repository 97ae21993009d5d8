/**
 * Who contributes through a page: `contact_id` (the caller's own contact, or any with `edit contributions`), else
 * the contact with that `email` (the first non-deleted one, primary emails first), else a new Individual with it;
 * without either, the logged-in caller's contact.
 */
import { holds, KernelError, type Principal } from '../../kernel';
import { present, type Entities } from '../entity-core';

type Row = Record<string, unknown>;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export async function pageContact(entities: Entities, params: Row, principal: Principal): Promise<number> {
  if (present(params.contact_id)) {
    const contactId = Number(params.contact_id);
    if (!Number.isInteger(contactId) || contactId <= 0)
      throw new KernelError('E_INVALID_PARAMS', `contact_id is not an id: ${String(params.contact_id)}`);
    if (contactId !== principal.contactId && !holds('edit contributions', principal.permissions))
      throw new KernelError('E_FORBIDDEN', 'Contributing for another contact needs the permission edit contributions');
    const [found] = await entities.get('Contact', { where: { id: contactId }, select: ['id'], limit: 1 });
    if (!found) throw new KernelError('E_INVALID_PARAMS', `Contact id ${contactId} not found`);
    return contactId;
  }
  if (present(params.email)) {
    const email = String(params.email).trim();
    if (!EMAIL.test(email)) throw new KernelError('E_INVALID_PARAMS', `email is not an email address: ${email}`);
    const [known] = await entities.get('Email', {
      where: [
        { path: 'email', op: '=', value: email },
        { path: 'contact_id.is_deleted', op: '=', value: false },
      ],
      select: ['contact_id'],
      orderBy: [
        { path: 'is_primary', dir: 'DESC' },
        { path: 'contact_id', dir: 'ASC' },
      ],
      limit: 1,
    });
    if (known) return Number(known.contact_id);
    const contact = await entities.save('Contact', {
      contact_type: 'Individual',
      first_name: params.first_name ?? params.billing_first_name ?? null,
      last_name: params.last_name ?? params.billing_last_name ?? null,
      source: 'Online contribution',
      // Contact create makes it the primary email (entity-contact).
      email,
    });
    return Number(contact.id);
  }
  if (principal.contactId) return principal.contactId;
  throw new KernelError('E_INVALID_PARAMS', 'Mandatory values missing: contact_id or email', {
    details: { error_code: 'mandatory_missing', fields: ['contact_id', 'email'] },
  });
}
