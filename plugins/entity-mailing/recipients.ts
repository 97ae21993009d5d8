/**
 * A mailing's recipients: the contacts of its included groups (static and smart), less those of its excluded
 * groups, less the deleted, deceased, do-not-email and opted-out, each with one usable email (not on hold;
 * the bulk-mail address first, then the primary one). Written as MailingRecipients rows, replacing any.
 */
import type { Condition, Entities } from '../entity-core';

type Row = Record<string, unknown>;
const GROUP_TABLE = 'civicrm_group';

export interface Recipient {
  contactId: number;
  emailId: number;
  email: string;
}

async function groupsOf(entities: Entities, mailingId: number, type: string): Promise<number[]> {
  const rows = await entities.get('MailingGroup', {
    where: { mailing_id: mailingId, group_type: type, entity_table: GROUP_TABLE },
    select: ['entity_id'],
  });
  return rows.map((row) => Number(row.entity_id));
}

/** The contacts a mailing would go to now, with the email each would be sent to. */
export async function resolveRecipients(entities: Entities, mailingId: number): Promise<Recipient[]> {
  const include = await groupsOf(entities, mailingId, 'Include');
  if (!include.length) return [];
  const exclude = await groupsOf(entities, mailingId, 'Exclude');
  // `groups` counts smart groups' members too (entity-group's expandFilter).
  const where: Condition[] = [
    { path: 'groups', op: 'IN', value: include },
    { path: 'is_deleted', op: '=', value: false },
    { path: 'is_deceased', op: '=', value: false },
    { path: 'do_not_email', op: '=', value: false },
    { path: 'is_opt_out', op: '=', value: false },
  ];
  if (exclude.length) where.push({ not: { path: 'groups', op: 'IN', value: exclude } });
  const contacts = await entities.get('Contact', { where, select: ['id'], orderBy: [{ path: 'id', dir: 'ASC' }] });
  const ids = contacts.map((row) => Number(row.id));
  if (!ids.length) return [];
  const emails = await entities.get('Email', {
    where: [
      { path: 'contact_id', op: 'IN', value: ids },
      { path: 'on_hold', op: '=', value: 0 },
      { path: 'email', op: 'IS NOT EMPTY' },
    ],
    select: ['id', 'contact_id', 'email', 'is_bulkmail', 'is_primary'],
    orderBy: [
      { path: 'is_bulkmail', dir: 'DESC' },
      { path: 'is_primary', dir: 'DESC' },
      { path: 'id', dir: 'ASC' },
    ],
  });
  const chosen = new Map<number, Row>();
  for (const email of emails) {
    const contactId = Number(email.contact_id);
    if (!chosen.has(contactId)) chosen.set(contactId, email);
  }
  return ids
    .filter((id) => chosen.has(id))
    .map((id) => ({ contactId: id, emailId: Number(chosen.get(id)!.id), email: String(chosen.get(id)!.email) }));
}

/** Rebuilds the mailing's MailingRecipients rows; returns them. */
export async function writeRecipients(entities: Entities, mailingId: number): Promise<Recipient[]> {
  const recipients = await resolveRecipients(entities, mailingId);
  for (const old of await entities.get('MailingRecipients', { where: { mailing_id: mailingId }, select: ['id'] }))
    await entities.delete('MailingRecipients', Number(old.id));
  for (const recipient of recipients)
    await entities.save('MailingRecipients', {
      mailing_id: mailingId,
      contact_id: recipient.contactId,
      email_id: recipient.emailId,
    });
  return recipients;
}
