/**
 * Activity's rules, as the reference's APIv3 applies them (api/v3/Activity.php): the type by `activity_name`
 * or `activity_label`, the source contact defaulting to the caller's, every contact id checked, and
 * APIv3 get's `contact_id` (the activities a contact takes any part in).
 */
import { KernelError } from '../../kernel';
import { present, type Condition, type EntityRegistry, type SaveContext } from '../entity-core';
import { PARTY_FIELDS } from './entities/Activity';

type Row = Record<string, unknown>;

function invalid(message: string, field?: string): KernelError {
  return new KernelError('E_INVALID_PARAMS', message, {
    details: { error_code: 'invalid value', ...(field ? { error_field: field } : {}) },
  });
}

/** `activity_name` / `activity_label` (APIv3): the activity type they name, checked against activity_type_id. */
async function typeFromName(values: Row, sc: SaveContext): Promise<void> {
  const name = sc.params.activity_name;
  const label = sc.params.activity_label;
  if (!present(name) && !present(label)) return;
  const by = present(name) ? 'name' : 'label';
  const wanted = by === 'name' ? String(name).charAt(0).toUpperCase() + String(name).slice(1) : String(label);
  const [option] = await sc.entities.get('OptionValue', {
    where: { 'option_group_id.name': 'activity_type', [by]: wanted },
    select: ['value'],
  });
  if (!option) throw invalid(by === 'name' ? `Invalid Activity Name : ${wanted}` : 'Invalid Activity Type Label');
  if (present(values.activity_type_id) && String(values.activity_type_id) !== String(option.value))
    throw invalid('Mismatch in Activity', 'activity_type_id');
  values.activity_type_id = Number(option.value);
}

/** Every contact id the write names exists (the reference's 'Invalid Contact Id'). */
async function checkContacts(values: Row, sc: SaveContext): Promise<void> {
  const ids = PARTY_FIELDS.flatMap((field) => {
    const value = values[field];
    return value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
  })
    .filter(present)
    .map(Number);
  if (!ids.length) return;
  if (ids.some((id) => !Number.isSafeInteger(id))) throw invalid('Invalid Contact Id');
  const unique = [...new Set(ids)];
  const found = await sc.entities.count('Contact', [
    { path: 'id', op: 'IN', value: unique },
    { path: 'is_deleted', op: 'IN', value: [0, 1] },
  ]);
  if (found !== unique.length) throw invalid('Invalid Contact Id');
}

export function extendActivities(entities: EntityRegistry): void {
  entities.extend('Activity', {
    params: ['activity_label', 'activity_name'],
    async beforeSave(values, sc) {
      const out = { ...values };
      await typeFromName(out, sc);
      // One of the three names the type: the reference's verify_one_mandatory (the column default is not used).
      if (!sc.existing && !present(out.activity_type_id)) {
        const fields = ['activity_name', 'activity_type_id', 'activity_label'];
        throw new KernelError(
          'E_INVALID_PARAMS',
          `Mandatory key(s) missing from params array: one of (${fields.join(', ')})`,
          {
            details: { error_code: 'mandatory_missing', fields },
          },
        );
      }
      // The source defaults to the caller's contact (APIv3 `api.default` user_contact_id; APIv4 does the same).
      if (!sc.existing && !present(out.source_contact_id) && sc.principal.contactId)
        out.source_contact_id = sc.principal.contactId;
      await checkContacts(out, sc);
      if (sc.existing) out.modified_date = new Date();
      return out;
    },
    beforeGet(params, { api }) {
      // APIv3 `contact_id`: the activities the contact is the source, a target or an assignee of.
      if (api !== 3 || !present(params.contact_id)) return undefined;
      const { contact_id: contactId, ...rest } = params;
      const ids = (Array.isArray(contactId) ? contactId : [contactId]).map(Number);
      const where: Condition[] = [
        {
          exists: {
            entity: 'ActivityContact',
            field: 'activity_id',
            where: [{ path: 'contact_id', op: 'IN', value: ids }],
          },
        },
      ];
      return { params: rest, where };
    },
  });
}
