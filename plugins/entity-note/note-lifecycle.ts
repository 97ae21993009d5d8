/** Note behaviour: the author defaults, the modified date, and deleting a note deletes the notes on it. */
import type { EntityRegistry, SaveContext } from '../entity-core';

type Row = Record<string, unknown>;
const present = (value: unknown) => value !== undefined && value !== null && value !== '';

function beforeSave(values: Row, sc: SaveContext): Row {
  const out: Row = { ...values, modified_date: new Date() };
  if (sc.existing) return out;
  // The author is the caller's contact; a note written by no one on a contact is taken as the contact's own.
  if (!present(out.contact_id) && sc.principal.contactId) out.contact_id = sc.principal.contactId;
  if (!present(out.contact_id) && (out.entity_table ?? 'civicrm_contact') === 'civicrm_contact')
    out.contact_id = out.entity_id;
  return out;
}

/** Comments (notes on this note) go with it, and theirs with them. */
async function beforeDelete(row: Row, sc: SaveContext): Promise<void> {
  const children = await sc.entities.get('Note', {
    where: { entity_table: 'civicrm_note', entity_id: Number(row.id) },
    select: ['id'],
  });
  for (const child of children) await sc.entities.delete('Note', Number(child.id));
}

export function extendNotes(entities: EntityRegistry): void {
  entities.extend('Note', { beforeSave, beforeDelete });
}
