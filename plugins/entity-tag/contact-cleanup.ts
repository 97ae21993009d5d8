/** A contact deleted for good (not moved to the trash) loses its entity tags, as the reference does. */
import type { EntityRegistry, SaveContext } from '../entity-core';

type Row = Record<string, unknown>;

export function dropTagsOfDeletedContacts(entities: EntityRegistry): void {
  entities.extend('Contact', {
    async afterDelete(row: Row, sc: SaveContext) {
      const id = Number(row.id);
      const kept = await sc.entities.count('Contact', [
        { path: 'id', op: '=', value: id },
        { path: 'is_deleted', op: 'IN', value: [0, 1] },
      ]);
      if (kept) return; // in the trash: restorable, tags kept
      const tags = await sc.entities.get('EntityTag', {
        where: { entity_table: 'civicrm_contact', entity_id: id },
        select: ['id'],
      });
      for (const tag of tags) await sc.entities.delete('EntityTag', Number(tag.id));
    },
  });
}
