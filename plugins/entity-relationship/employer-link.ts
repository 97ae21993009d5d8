/**
 * A contact's current employer and its "Employee of" relationship move together, as in the reference
 * (CRM/Contact/BAO/Contact/Utils.php, CRM/Contact/BAO/Relationship.php):
 * - an individual's `employer_id` set (or `current_employer` named) makes the relationship to that
 *   organisation active (created when missing); a changed or cleared employer ends the old one;
 * - a relationship of that type saved with `is_current_employer` sets the individual's employer;
 * - disabling or deleting it clears the employer when it was that organisation.
 * Each side writes the other through the entity service, so the writes stop where nothing changes.
 */
import { present, truthy, type EntityRegistry, type SaveContext } from '../entity-core';

type Row = Record<string, unknown>;
const today = () => new Date().toISOString().slice(0, 10);

async function employeeTypeId(sc: SaveContext): Promise<number | undefined> {
  const [type] = await sc.entities.get('RelationshipType', {
    where: [{ path: 'name_a_b', op: '=', value: 'Employee of' }],
    select: ['id'],
  });
  return type ? Number(type.id) : undefined;
}

const between = (typeId: number, employee: unknown, employer: unknown) => [
  { path: 'relationship_type_id', op: '=' as const, value: typeId },
  { path: 'contact_id_a', op: '=' as const, value: Number(employee) },
  { path: 'contact_id_b', op: '=' as const, value: Number(employer) },
];

/** The employment relationship is active: the latest one re-enabled, or a new one. */
async function startEmployment(typeId: number, employee: unknown, employer: unknown, sc: SaveContext) {
  const found = await sc.entities.get('Relationship', {
    where: between(typeId, employee, employer),
    select: ['id', 'is_active', 'end_date'],
    orderBy: [{ path: 'id', dir: 'DESC' }],
  });
  const current = found.find((row) => row.is_active && !present(row.end_date)) ?? found[0];
  if (!current)
    await sc.entities.save('Relationship', {
      relationship_type_id: typeId,
      contact_id_a: Number(employee),
      contact_id_b: Number(employer),
      is_active: 1,
    });
  else if (!current.is_active || present(current.end_date))
    await sc.entities.save('Relationship', { id: current.id, is_active: 1, end_date: null });
}

/** Active employment relationships with a former employer end today. */
async function endEmployment(typeId: number, employee: unknown, employer: unknown, sc: SaveContext) {
  const active = await sc.entities.get('Relationship', {
    where: [...between(typeId, employee, employer), { path: 'is_active', op: '=', value: true }],
    select: ['id'],
  });
  for (const row of active) await sc.entities.save('Relationship', { id: row.id, is_active: 0, end_date: today() });
}

async function employerOf(contactId: unknown, sc: SaveContext): Promise<unknown> {
  const [contact] = await sc.entities.get('Contact', {
    where: [
      { path: 'id', op: '=', value: Number(contactId) },
      { path: 'is_deleted', op: 'IN', value: [true, false] },
    ],
    select: ['employer_id'],
  });
  return contact?.employer_id;
}

async function afterContactSave(row: Row, sc: SaveContext): Promise<void> {
  if (row.contact_type !== 'Individual') return;
  const before = sc.existing?.employer_id;
  const after = row.employer_id;
  if (sc.existing && Number(before ?? 0) === Number(after ?? 0)) return;
  if (!present(before) && !present(after)) return;
  const typeId = await employeeTypeId(sc);
  if (typeId === undefined) return;
  if (present(before) && Number(before) !== Number(after)) await endEmployment(typeId, row.id, before, sc);
  if (present(after)) await startEmployment(typeId, row.id, after, sc);
}

async function afterRelationshipChange(row: Row, sc: SaveContext, deleted: boolean): Promise<void> {
  const typeId = await employeeTypeId(sc);
  if (typeId === undefined || Number(row.relationship_type_id) !== typeId) return;
  const employer = await employerOf(row.contact_id_a, sc);
  const inForce = !deleted && Boolean(row.is_active) && (!present(row.end_date) || String(row.end_date) >= today());
  if (inForce && truthy(sc.params.is_current_employer) && Number(employer) !== Number(row.contact_id_b))
    await sc.entities.save('Contact', { id: row.contact_id_a, employer_id: row.contact_id_b });
  else if (!inForce && present(employer) && Number(employer) === Number(row.contact_id_b))
    await sc.entities.save('Contact', { id: row.contact_id_a, employer_id: null });
}

export function linkEmployers(entities: EntityRegistry): void {
  entities.extend('Contact', { afterSave: afterContactSave });
  entities.extend('Relationship', {
    params: ['is_current_employer'],
    afterSave: (row, sc) => afterRelationshipChange(row, sc, false),
    afterDelete: (row, sc) => afterRelationshipChange(row, sc, true),
  });
}
