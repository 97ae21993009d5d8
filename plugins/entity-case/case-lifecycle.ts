/**
 * Case and CaseType rules, as the reference's api/v3/Case.php and CaseType applies them: the case type by
 * machine name (`case_type`, 4.5.0; a title still matches, deprecated), the mandatory keys of a new case,
 * today as the start date, the creator (the caller's contact by default, never changed on update), the
 * Open Case timeline and roles, the trash (`move_to_trash`), and APIv3 get's `activity_id` and by-id extras.
 */
import { KernelError } from '../../kernel';
import type { Condition, EntityRegistry, SaveContext } from '../entity-core';
import { openCase } from './case-timeline';
import { checkDefinition } from './definition';
import Case from './entities/Case';

type Row = Record<string, unknown>;
const present = (value: unknown) =>
  value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);
const invalid = (message: string, field?: string) =>
  new KernelError('E_INVALID_PARAMS', message, {
    details: { error_code: 'invalid value', ...(field ? { error_field: field } : {}) },
  });

/** `case_type`: a case type's machine name; failing that its title (the deprecated form). */
async function caseTypeFromName(values: Row, sc: SaveContext): Promise<void> {
  const wanted = sc.params.case_type;
  if (!present(wanted) || present(values.case_type_id)) return;
  for (const by of ['name', 'title']) {
    const [type] = await sc.entities.get('CaseType', { where: { [by]: String(wanted) }, select: ['id'] });
    if (type) {
      values.case_type_id = Number(type.id);
      return;
    }
  }
  throw invalid(`Invalid case_type: ${String(wanted)}`, 'case_type');
}

function checkMandatory(values: Row): void {
  const missing = [
    ...(present(values.contact_id) ? [] : ['contact_id']),
    ...(present(values.subject) ? [] : ['subject']),
    ...(present(values.case_type_id) ? [] : ['one of (case_type, case_type_id)']),
  ];
  if (missing.length)
    throw new KernelError('E_INVALID_PARAMS', `Mandatory key(s) missing from params array: ${missing.join(', ')}`, {
      details: { error_code: 'mandatory_missing', fields: missing },
    });
}

/** Every client named exists (the reference refuses an unknown contact before writing anything). */
async function checkClients(values: Row, sc: SaveContext): Promise<void> {
  if (!present(values.contact_id)) return;
  const ids = (Array.isArray(values.contact_id) ? values.contact_id : [values.contact_id]).map(Number);
  if (ids.some((id) => !Number.isSafeInteger(id) || id <= 0)) throw invalid('Invalid Contact Id', 'contact_id');
  const unique = [...new Set(ids)];
  const found = await sc.entities.count('Contact', [
    { path: 'id', op: 'IN', value: unique },
    { path: 'is_deleted', op: 'IN', value: [0, 1] },
  ]);
  if (found !== unique.length) throw invalid('Invalid Contact Id', 'contact_id');
}

const today = () => new Date().toISOString().slice(0, 10);

/** The creator of a new case: `creator_id`, else the caller's contact (APIv3 api.default user_contact_id). */
function creatorOf(sc: SaveContext): number | undefined {
  const given = sc.params.creator_id;
  if (!present(given)) return sc.principal.contactId ? Number(sc.principal.contactId) : undefined;
  const creator = Number(given);
  if (!Number.isSafeInteger(creator) || creator <= 0) throw invalid('Invalid creator_id', 'creator_id');
  return creator;
}

/** Delete: to the trash with `move_to_trash` (its activities too), else for good with its activities and roles. */
async function deleteCase(row: Row, sc: SaveContext): Promise<'handled' | void> {
  const activities = await sc.entities.get('CaseActivity', { where: { case_id: row.id }, select: ['activity_id'] });
  const trash = sc.params.move_to_trash;
  if (trash === true || trash === 1 || trash === '1' || trash === 'true') {
    await sc.db(Case.table).where({ id: row.id }).update({ is_deleted: true, modified_date: new Date() });
    for (const activity of activities) await sc.entities.save('Activity', { id: activity.activity_id, is_deleted: 1 });
    return 'handled';
  }
  for (const activity of activities) await sc.entities.delete('Activity', Number(activity.activity_id));
  const roles = await sc.entities.get('Relationship', { where: { case_id: row.id }, select: ['id'] });
  for (const role of roles) await sc.entities.delete('Relationship', Number(role.id));
}

export function extendCases(entities: EntityRegistry): void {
  entities.extend('Case', {
    // The Open Case activity's own values too (case-timeline.ts).
    params: ['case_type', 'creator_id', 'move_to_trash', 'start_date', 'location', 'duration', 'medium_id', 'details'],
    async beforeSave(values, sc) {
      const out = { ...values };
      await caseTypeFromName(out, sc);
      await checkClients(out, sc);
      if (sc.existing) {
        if (sc.params.creator_id !== undefined) throw invalid('You cannot update creator id', 'creator_id');
        out.modified_date = new Date();
        return out;
      }
      checkMandatory(out);
      if (!present(out.start_date)) out.start_date = today();
      creatorOf(sc);
      return out;
    },
    async afterSave(row, sc) {
      if (!sc.existing) await openCase(sc, row, creatorOf(sc));
    },
    beforeDelete: deleteCase,
    beforeGet(params, { api }) {
      if (api !== 3) return undefined;
      const rest = { ...params };
      const where: Condition[] = [];
      // APIv3 `activity_id`: the case an activity is filed on.
      if (present(rest.activity_id)) {
        const activityId = Number(rest.activity_id);
        if (!Number.isSafeInteger(activityId) || activityId <= 0)
          throw invalid('Invalid parameter: activity_id. Must provide a numeric value.', 'activity_id');
        delete rest.activity_id;
        const filed = [{ path: 'activity_id', op: '=' as const, value: activityId }];
        where.push({ exists: { entity: 'CaseActivity', field: 'case_id', where: filed } });
      }
      // Fetched by id without `return`: the clients and the activities too (the reference's historic default).
      if (/^\d+$/.test(String(rest.id ?? '')) && !present(rest.return))
        rest.return = [...(Case.defaultReturn ?? []), 'activities'];
      return { params: rest, where };
    },
  });
  entities.extend('CaseType', {
    beforeSave(values) {
      if (values.definition === undefined) return values;
      return { ...values, definition: checkDefinition(values.definition) };
    },
  });
}
