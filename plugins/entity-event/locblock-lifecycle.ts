/**
 * LocBlock behaviour: create takes nested address, email and phone records (4.3.0), written with the caller's
 * row access; chained from an event (4.6.7) the new block becomes that event's location. Also the copy of a
 * block an event cloned from a template gets.
 */
import { KernelError } from '../../kernel';
import { present, type Entities, type EntityRegistry, type EntityService, type SaveContext } from '../entity-core';

type Row = Record<string, unknown>;

const LOCATIONS: Array<[key: string, entity: string]> = [
  ['address', 'Address'],
  ['email', 'Email'],
  ['phone', 'Phone'],
];
const SUFFIXES = ['', '_2'];

/** `address`, `email`, `phone` (and `_2`) given as records: created first, their ids stored (an `{id}` alone is linked). */
async function nestedRecords(values: Row, sc: SaveContext, checked: Entities): Promise<Row> {
  const out: Row = { ...values };
  for (const suffix of SUFFIXES) {
    if (present(sc.params[`im${suffix}`]) && typeof sc.params[`im${suffix}`] === 'object')
      throw new KernelError('E_INVALID_PARAMS', `im${suffix}: instant messenger records are not supported here`);
    for (const [item, entity] of LOCATIONS) {
      const key = `${item}${suffix}`;
      const info = sc.params[key];
      if (info === undefined || info === null || info === '') continue;
      if (typeof info !== 'object' || Array.isArray(info))
        throw new KernelError('E_INVALID_PARAMS', `${key} must be a record ({id} or the ${entity}'s fields)`);
      const record = info as Row;
      if (Object.keys(record).length === 1 && present(record.id)) out[`${key}_id`] = record.id;
      else out[`${key}_id`] = (await checked.save(entity, record)).id;
    }
  }
  return out;
}

/** Chained from an event (`api.LocBlock.create` passes `entity_table`/`entity_id`): the event uses the new block. */
async function linkToEvent(row: Row, sc: SaveContext, checked: Entities): Promise<void> {
  if (sc.existing || sc.params.entity_table !== 'civicrm_event' || !present(sc.params.entity_id)) return;
  const eventId = Number(sc.params.entity_id);
  const [event] = await checked.get('Event', { where: { id: eventId }, select: ['id'], limit: 1 });
  if (!event) throw new KernelError('E_INVALID_PARAMS', `entity_id ${eventId}: no such event`);
  await checked.save('Event', { id: eventId, loc_block_id: row.id });
}

/** A copy of a block and of the records it points at (an event cloned from a template gets its own location). */
export async function copyLocBlock(entities: Entities, blockId: number): Promise<number | undefined> {
  const [block] = await entities.get('LocBlock', { where: { id: blockId }, limit: 1 });
  if (!block) return undefined;
  const copy: Row = {};
  for (const suffix of SUFFIXES)
    for (const [item, entity] of [...LOCATIONS, ['im', '']]) {
      const key = `${item}${suffix}_id`;
      if (!present(block[key])) continue;
      if (!entity) {
        copy[key] = block[key];
        continue;
      }
      const [record] = await entities.get(entity, { where: { id: Number(block[key]) }, limit: 1 });
      if (!record) continue;
      const { id: _id, ...fields } = record;
      copy[key] = (await entities.save(entity, { ...fields, is_primary: false })).id;
    }
  return Number((await entities.save('LocBlock', copy)).id);
}

export function extendLocBlocks(registry: EntityRegistry, service: () => EntityService): void {
  // Nested records and the event link are written with the caller's row access, not the trusted `sc.entities`.
  const checkedFor = (sc: SaveContext) => service().bind({ db: sc.db, principal: sc.principal });
  registry.extend('LocBlock', {
    params: ['entity_id', 'entity_table'],
    beforeSave: (values, sc) => nestedRecords(values, sc, checkedFor(sc)),
    afterSave: (row, sc) => linkToEvent(row, sc, checkedFor(sc)),
  });
}
