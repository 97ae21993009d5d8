/**
 * Participant and LocBlock behaviour: templates cannot be registered for, the role defaults to the event's
 * default role; LocBlock create takes nested address, email and phone (4.3.0) and, chained from an event
 * (4.6.7), becomes that event's location.
 */
import { KernelError } from '../../kernel';
import type { EntityRegistry, SaveContext } from '../entity-core';

type Row = Record<string, unknown>;
const present = (value: unknown) => value !== undefined && value !== null && value !== '';

const LOCATIONS: Array<[key: string, entity: string]> = [
  ['address', 'Address'],
  ['email', 'Email'],
  ['phone', 'Phone'],
];

async function participantBeforeSave(values: Row, sc: SaveContext): Promise<Row> {
  const eventId = values.event_id ?? sc.existing?.event_id;
  if (!present(values.event_id)) return values;
  const [event] = await sc.entities.get('Event', {
    where: { id: Number(eventId) },
    select: ['is_template', 'default_role_id'],
    limit: 1,
  });
  if (!event) throw new KernelError('E_INVALID_PARAMS', `event_id ${String(eventId)}: no such event`);
  if (event.is_template === true || event.is_template === 1 || event.is_template === '1')
    throw new KernelError('E_INVALID_PARAMS', 'Event templates are not meant to be registered.');
  if (!sc.existing && !present(values.role_id) && present(event.default_role_id))
    return { ...values, role_id: [String(event.default_role_id)] };
  return values;
}

/** `address`, `email`, `phone` (and `_2`) given as records: created first, their ids stored (an `{id}` alone is linked). */
async function locBlockBeforeSave(values: Row, sc: SaveContext): Promise<Row> {
  const out: Row = { ...values };
  for (const suffix of ['', '_2']) {
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
      else out[`${key}_id`] = (await sc.entities.save(entity, record)).id;
    }
  }
  return out;
}

/** Chained from an event (`api.LocBlock.create` passes `entity_table`/`entity_id`): the event uses the new block. */
async function locBlockAfterSave(row: Row, sc: SaveContext): Promise<void> {
  if (sc.existing || sc.params.entity_table !== 'civicrm_event' || !present(sc.params.entity_id)) return;
  const eventId = Number(sc.params.entity_id);
  const [event] = await sc.entities.get('Event', { where: { id: eventId }, select: ['id'], limit: 1 });
  if (!event) throw new KernelError('E_INVALID_PARAMS', `entity_id ${eventId}: no such event`);
  await sc.entities.save('Event', { id: eventId, loc_block_id: row.id });
}

export function extendParticipants(registry: EntityRegistry): void {
  registry.extend('Participant', { beforeSave: participantBeforeSave });
  registry.extend('LocBlock', { beforeSave: locBlockBeforeSave, afterSave: locBlockAfterSave });
}
