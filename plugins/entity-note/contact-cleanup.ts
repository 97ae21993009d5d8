/** A contact deleted for good (not moved to the trash) takes the notes on it with it, as the reference does. */
import type { EntityRegistry, SaveContext } from '../entity-core';

type Row = Record<string, unknown>;

export function dropNotesOfDeletedContacts(entities: EntityRegistry): void {
  entities.extend('Contact', {
    async afterDelete(row: Row, sc: SaveContext) {
      const id = Number(row.id);
      const kept = await sc.entities.count('Contact', [
        { path: 'id', op: '=', value: id },
        { path: 'is_deleted', op: 'IN', value: [0, 1] },
      ]);
      if (kept) return; // in the trash: restorable, notes kept
      const notes = await sc.entities.get('Note', {
        where: { entity_table: 'civicrm_contact', entity_id: id },
        select: ['id'],
      });
      for (const note of notes) await sc.entities.delete('Note', Number(note.id));
    },
  });
}
