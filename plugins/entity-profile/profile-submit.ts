/**
 * Profile.submit: updates a contact (or creates one when none is given) and its email, phone, address and
 * website of the profile's location types, from the profile's fields only. A key that is not a field of the
 * profile is refused (4.4.6: `post_URL`, `cancel_URL`, `add_to_group_id` are profile settings, not fields);
 * a required field must be given. The profile's `add_to_group_id` adds the contact to that group.
 */
import { holds, type ActionContext } from '../../kernel';
import { invalid, mandatoryMissing } from '../api3';
import { present, type Entities } from '../entity-core';
import { defaultLocationType, findSlot, slotsOf } from './locations';
import { CONTACT_TYPES, loadProfile, profileFields, RETIRED_FIELDS, type ProfileField } from './profile-fields';

type Row = Record<string, unknown>;

/** Keys any Profile.submit call may carry besides the profile's fields. */
const CALL_KEYS = new Set([
  'profile_id',
  'contact_id',
  'id',
  'contact_type',
  'version',
  'sequential',
  'check_permissions',
  'debug',
  'prettyprint',
  'options',
]);

export const PROFILE_PERMISSIONS = {
  create: 'create contacts through profiles',
  edit: 'edit own contact through profiles',
  view: 'view contacts through profiles',
};

/** The given values by profile field (any spelling, case-insensitive), refusing keys that are not fields. */
function valuesByField(params: Row, fields: ProfileField[]): Map<ProfileField, unknown> {
  const bySpelling = new Map<string, ProfileField>();
  for (const field of fields)
    for (const spelling of [field.apiKey, field.key, ...field.aliases]) bySpelling.set(spelling.toLowerCase(), field);
  const given = new Map<ProfileField, unknown>();
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (CALL_KEYS.has(key) || key.startsWith('api.')) continue;
    const field = bySpelling.get(key.toLowerCase());
    if (field) given.set(field, value);
    else unknown.push(key);
  }
  const retired = unknown.filter((key) => RETIRED_FIELDS.includes(key.toLowerCase()));
  if (retired.length)
    throw invalid(
      `${retired.join(', ')}: not a profile field since 4.4.6; set post_url, cancel_url and add_to_group_id on the profile (UFGroup)`,
      0,
      { error_field: retired[0] },
    );
  if (unknown.length)
    throw invalid(`Not a field of this profile: ${unknown.join(', ')}`, 0, { error_field: unknown[0] });
  const missing = fields
    .filter((field) => field.row.is_required && !present(given.get(field)))
    .map((field) => field.apiKey);
  if (missing.length) throw mandatoryMissing(missing);
  return given;
}

/** The contact type a new contact gets: the profile's own (Individual unless its fields say otherwise). */
function contactTypeOf(fields: ProfileField[], params: Row): string {
  const typed = fields
    .map((field) => String(field.row.field_type ?? ''))
    .find((type) => CONTACT_TYPES.includes(type) && type !== 'Contact');
  return typed ?? (typeof params.contact_type === 'string' ? params.contact_type : 'Individual');
}

interface Writer {
  call(entity: string, action: string, params: Row): Promise<Row>;
}

async function writeLocations(
  reader: Entities,
  writer: Writer,
  fields: ProfileField[],
  given: Map<ProfileField, unknown>,
  contactId: number,
) {
  for (const slot of slotsOf(fields.filter((field) => given.has(field)))) {
    const values: Row = Object.fromEntries(slot.fields.map((field) => [field.realName, given.get(field)]));
    const existing = await findSlot(reader, slot, contactId);
    if (existing) {
      await writer.call(slot.entity, 'create', { ...values, id: existing.id });
      continue;
    }
    if (!Object.values(values).some(present)) continue;
    const record: Row = { ...values, contact_id: contactId };
    if (slot.location === 'Primary') {
      record.is_primary = 1;
      record.location_type_id = await defaultLocationType(reader);
    } else if (slot.location !== undefined) record.location_type_id = slot.location;
    if (slot.phoneTypeId !== undefined) record.phone_type_id = slot.phoneTypeId;
    if (slot.websiteTypeId !== undefined) record.website_type_id = slot.websiteTypeId;
    if (slot.entity === 'Website') delete record.location_type_id;
    await writer.call(slot.entity, 'create', record);
  }
}

export async function profileSubmit(params: Row, trusted: Entities, ctx: ActionContext): Promise<Row> {
  if (!present(params.profile_id)) throw mandatoryMissing(['profile_id']);
  const profile = await loadProfile(trusted, params.profile_id);
  const fields = await profileFields(trusted, Number(profile.id));
  const unsupported = fields.find(
    (field) => field.entity !== 'Contact' && !['Email', 'Phone', 'Address', 'Website'].includes(field.entity),
  );
  if (unsupported)
    throw invalid(`Profile.submit does not support ${unsupported.entity} fields (${unsupported.key}) yet`);
  const given = valuesByField(params, fields);
  const asked = present(params.contact_id) ? params.contact_id : params.id;
  const contactId = present(asked) ? Number(asked) : undefined;
  if (contactId !== undefined && !Number.isInteger(contactId)) throw invalid('contact_id is not a valid integer', 2001);
  const granted = ctx.principal.permissions;
  // Own contact with the profile permission, or a new contact with the create one: written trusted;
  // otherwise as the caller, so contact permissions and row access decide.
  const asTrusted =
    contactId === undefined
      ? holds(PROFILE_PERMISSIONS.create, granted)
      : contactId === ctx.principal.contactId && holds(PROFILE_PERMISSIONS.edit, granted);
  const writer: Writer = {
    call: async (entity, action, values) =>
      (await ctx.call(entity, action, values, { version: 3, trusted: asTrusted || ctx.trusted })) as Row,
  };
  if (contactId !== undefined && !(await trusted.count('Contact', { id: contactId })))
    throw invalid(`Contact ${contactId} not found`);
  const contactValues: Row = {};
  for (const [field, value] of given) if (field.entity === 'Contact') contactValues[field.realName] = value;
  const saved = await writer.call('Contact', 'create', {
    ...contactValues,
    ...(contactId === undefined ? { contact_type: contactTypeOf(fields, params) } : { id: contactId }),
  });
  const id = Number(saved.id);
  await writeLocations(trusted, writer, fields, given, id);
  if (
    profile.add_to_group_id &&
    !(await trusted.count('GroupContact', { group_id: profile.add_to_group_id, contact_id: id }))
  )
    await trusted.save('GroupContact', { group_id: profile.add_to_group_id, contact_id: id, status: 'Added' });
  const [contact] = await trusted.get('Contact', { where: { id } });
  return { is_error: 0, version: 3, count: 1, id, values: { [String(id)]: contact } };
}
