/** entity-note: Note, its defaults and cascade, and its row access (the noted record's, and the note's privacy). */
import { definePlugin, holds, type Principal } from '../../kernel';
import {
  entityAccess,
  referencedRowAccess,
  type Condition,
  type EntityRegistry,
  type EntityStore,
  type RowAccess,
  type RowOperation,
} from '../entity-core';
import { permissionsCatalogue } from '../users';
import { extendNotes } from './note-lifecycle';

/** How many levels of notes on notes row access follows up to the noted record (deeper comments are hidden). */
const NOTE_DEPTH = 3;

export default definePlugin(({ services, hooks }) => {
  const entities = services.resolve<EntityRegistry>('entities');
  extendNotes(entities);
  hooks.tap(permissionsCatalogue, () => ({
    name: 'view all notes',
    label: 'CRM: view all notes',
    description: 'Read notes marked Author Only that others wrote',
  }));

  /** A note's conditions: its privacy (reading), and the noted record's access, through parent notes. */
  async function noteAccess(principal: Principal, operation: RowOperation, depth: number): Promise<RowAccess> {
    const store = services.resolve<EntityStore>('entityStore');
    const contacts = await referencedRowAccess(store.access, entities, principal, operation, {
      tableField: 'entity_table',
      idField: 'entity_id',
      tables: { Contact: 'civicrm_contact' },
    });
    const where: Condition[] = [];
    // An "Author Only" note is read by its author, or with `view all notes`.
    if (operation === 'view' && !holds('view all notes', principal.permissions)) {
      const mine = principal.contactId ? [{ path: 'contact_id', op: '=' as const, value: principal.contactId }] : [];
      where.push({
        or: [{ path: 'privacy', op: '=', value: '0' }, { and: [{ path: 'privacy', op: '=', value: '1' }, ...mine] }],
      });
    }
    if (contacts === 'none') return 'none';
    const parent = depth > 0 ? await noteAccess(principal, operation, depth - 1) : 'none';
    if (contacts === 'all' && parent === 'all') return where.length ? { where } : 'all';
    // Notes on a contact follow the contact; notes on a note follow that note.
    const onContact = contacts === 'all' ? [] : contacts.where;
    const onNote: Condition[] =
      parent === 'all'
        ? []
        : parent === 'none'
          ? [{ path: 'entity_table', op: '<>', value: 'civicrm_note' }]
          : [
              {
                or: [
                  { path: 'entity_table', op: '<>', value: 'civicrm_note' },
                  { exists: { entity: 'Note', field: 'id', ref: 'entity_id', where: parent.where } },
                ],
              },
            ];
    return { where: [...where, ...onContact, ...onNote] };
  }

  hooks.tap(entityAccess, ({ entity, operation, principal }) => {
    if (entity !== 'Note') return undefined;
    return noteAccess(principal, operation === 'view' ? 'view' : 'edit', NOTE_DEPTH);
  });
});
