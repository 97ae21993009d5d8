/**
 * What opening a case does, after the reference's case-type processing: the activities of the case type's
 * standard timeline (Open Case, completed, on the start date; the others scheduled at their offsets) filed on
 * the case through Activity and CaseActivity, and the creator's case roles as Relationships of each client.
 */
import { KernelError } from '../../kernel';
import type { SaveContext } from '../entity-core';
import { isSet, type ActivityStep, type CaseDefinition } from './definition';

type Row = Record<string, unknown>;

const invalid = (message: string) =>
  new KernelError('E_INVALID_PARAMS', message, { details: { error_code: 'invalid value' } });

/** The stored definition as a structure (JSON text from the store, or already parsed). */
export function parsedDefinition(stored: unknown): CaseDefinition {
  if (!stored) return {};
  return (typeof stored === 'string' ? JSON.parse(stored) : stored) as CaseDefinition;
}

async function optionValues(sc: SaveContext, group: string): Promise<Map<string, number>> {
  const rows = await sc.entities.get('OptionValue', {
    where: { 'option_group_id.name': group },
    select: ['name', 'value'],
  });
  return new Map(rows.map((row) => [String(row.name), Number(row.value)]));
}

const addDays = (date: string, days: number): string => {
  const day = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
};

/** The standard timeline's steps; a case type without a timeline still gets its Open Case activity. */
function timelineSteps(definition: CaseDefinition): ActivityStep[] {
  const timeline = (definition.activitySets ?? []).find((set) => isSet(set.timeline));
  const steps = timeline?.activityTypes ?? [];
  return steps.some((step) => step.name === 'Open Case')
    ? steps
    : [{ name: 'Open Case', status: 'Completed' }, ...steps];
}

async function fileActivities(
  sc: SaveContext,
  caseRow: Row,
  definition: CaseDefinition,
  clients: number[],
  creator?: number,
) {
  const types = await optionValues(sc, 'activity_type');
  const statuses = await optionValues(sc, 'activity_status');
  const startDate = String(caseRow.start_date).slice(0, 10);
  const openDate =
    typeof sc.params.start_date === 'string' && sc.params.start_date.length > 10 ? sc.params.start_date : startDate;
  for (const step of timelineSteps(definition)) {
    const typeId = types.get(step.name);
    if (typeId === undefined) throw invalid(`Activity type "${step.name}" of the case type definition does not exist`);
    const isOpen = step.name === 'Open Case';
    const status = statuses.get(step.status ?? (isOpen ? 'Completed' : 'Scheduled'));
    const offset = Number(step.reference_offset ?? 0) || 0;
    const activity = await sc.entities.save('Activity', {
      activity_type_id: typeId,
      subject: isOpen ? (caseRow.subject ?? step.name) : step.name,
      status_id: status ?? null,
      activity_date_time: isOpen ? openDate : addDays(startDate, offset),
      ...(creator ? { source_contact_id: creator } : {}),
      target_contact_id: clients,
      ...(isOpen ? openCaseExtras(sc.params) : {}),
    });
    await sc.entities.save('CaseActivity', { case_id: caseRow.id, activity_id: activity.id });
  }
}

/** The Open Case activity takes the create call's location, duration, medium and details. */
function openCaseExtras(params: Row): Row {
  const extras: Row = {};
  for (const key of ['location', 'duration', 'medium_id', 'details'])
    if (params[key] !== undefined && params[key] !== null && params[key] !== '') extras[key] = params[key];
  return extras;
}

/** The creator's roles: a relationship "client (A) — <role> is — creator (B)" per client, tied to the case. */
async function assignCreatorRoles(
  sc: SaveContext,
  caseRow: Row,
  definition: CaseDefinition,
  clients: number[],
  creator: number,
) {
  for (const role of (definition.caseRoles ?? []).filter((caseRole) => isSet(caseRole.creator))) {
    const [type] = await sc.entities.get('RelationshipType', {
      where: [
        {
          or: [
            { path: 'name_b_a', op: '=', value: role.name },
            { path: 'label_b_a', op: '=', value: role.name },
          ],
        },
      ],
      select: ['id'],
      limit: 1,
    });
    if (!type) throw invalid(`Relationship type "${role.name}" of the case type definition does not exist`);
    for (const client of clients)
      if (client !== creator)
        await sc.entities.save('Relationship', {
          relationship_type_id: type.id,
          contact_id_a: client,
          contact_id_b: creator,
          case_id: caseRow.id,
          start_date: String(caseRow.start_date).slice(0, 10),
          is_active: 1,
        });
  }
}

/** Runs after a new case and its clients are stored. */
export async function openCase(sc: SaveContext, caseRow: Row, creator: number | undefined): Promise<void> {
  const [type] = await sc.entities.get('CaseType', { where: { id: caseRow.case_type_id }, select: ['definition'] });
  const definition = parsedDefinition(type?.definition);
  const clientRows = await sc.entities.get('CaseContact', { where: { case_id: caseRow.id }, select: ['contact_id'] });
  const clients = clientRows.map((row) => Number(row.contact_id));
  await fileActivities(sc, caseRow, definition, clients, creator);
  if (creator) await assignCreatorRoles(sc, caseRow, definition, clients, creator);
}
