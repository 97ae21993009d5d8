/**
 * Note behaviour: the author defaults and the modified date. Comments (notes on a note) and the notes of a
 * contact deleted for good go with it through the dynamic reference's `onDelete: 'cascade'`.
 */
import { present, type EntityRegistry, type SaveContext } from '../entity-core';

type Row = Record<string, unknown>;

function beforeSave(values: Row, sc: SaveContext): Row {
  const out: Row = { ...values, modified_date: new Date() };
  if (sc.existing) return out;
  // The author is the caller's contact; a note written by no one on a contact is taken as the contact's own.
  if (!present(out.contact_id) && sc.principal.contactId) out.contact_id = sc.principal.contactId;
  if (!present(out.contact_id) && (out.entity_table ?? 'civicrm_contact') === 'civicrm_contact')
    out.contact_id = out.entity_id;
  return out;
}

export function extendNotes(entities: EntityRegistry): void {
  entities.extend('Note', { beforeSave });
}
