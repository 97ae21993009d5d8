/** Participant behaviour: templates cannot be registered for, the role defaults to the event's default role. */
import { KernelError } from '../../kernel';
import { present, type EntityRegistry, type SaveContext } from '../entity-core';

type Row = Record<string, unknown>;

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

export function extendParticipants(registry: EntityRegistry): void {
  registry.extend('Participant', { beforeSave: participantBeforeSave });
}
