/**
 * Profile.get (a contact's values for a profile's fields, keyed as the reference keys them, with lower-case
 * twins) and Profile.getfields (the fields Profile.submit takes: titles, required flags, options).
 */
import type { ActionContext } from '../../kernel';
import { invalid, mandatoryMissing } from '../api3';
import { present, type Entities } from '../entity-core';
import { findSlot, slotsOf } from './locations';
import { loadProfile, profileFields, type ProfileField } from './profile-fields';

type Row = Record<string, unknown>;

/** A value as APIv3 shows it: a string, `''` for none, booleans as 1/0, dates as `YYYY-MM-DD HH:MM:SS`. */
function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (value instanceof Date) return value.toISOString().slice(0, 19).replace('T', ' ');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** `profile_id` as the list of profiles asked for; a single id keeps the reference's flat answer. */
export function profileIds(params: Row): { ids: unknown[]; single: boolean } {
  if (!present(params.profile_id)) throw mandatoryMissing(['profile_id']);
  const ids = Array.isArray(params.profile_id) ? params.profile_id : [params.profile_id];
  if (!ids.length) throw mandatoryMissing(['profile_id']);
  return { ids, single: !Array.isArray(params.profile_id) && /^\d+$/.test(String(params.profile_id)) };
}

async function contactValues(entities: Entities, fields: ProfileField[], contactId: number): Promise<Row> {
  const contactFields = fields.filter((field) => field.entity === 'Contact').map((field) => field.realName);
  const [contact] = await entities.get('Contact', { where: { id: contactId }, select: ['id', ...contactFields] });
  const values: Row = {};
  for (const field of fields) if (field.entity === 'Contact') values[field.key] = text(contact?.[field.realName]);
  for (const slot of slotsOf(fields)) {
    const record = await findSlot(entities, slot, contactId);
    for (const field of slot.fields) values[field.key] = text(record?.[field.realName]);
  }
  return values;
}

/** Profile.get: profiles read trusted, the contact as the caller (no answer for a contact the caller may not see). */
export async function profileGet(params: Row, trusted: Entities, asCaller: Entities): Promise<Row> {
  const { ids, single } = profileIds(params);
  const contactId = present(params.contact_id) ? Number(params.contact_id) : undefined;
  if (contactId !== undefined) {
    if (!Number.isInteger(contactId)) throw invalid('contact_id is not a valid integer', 2001);
    if (!(await asCaller.count('Contact', { id: contactId }))) throw invalid('permission denied');
  }
  const answer: Record<string, Row> = {};
  for (const asked of ids) {
    const profile = await loadProfile(trusted, asked);
    const fields = await profileFields(trusted, Number(profile.id));
    let values: Row;
    if (contactId === undefined) values = Object.fromEntries(fields.map((field) => [field.key, '']));
    else values = await contactValues(asCaller, fields, contactId);
    // The reference answers both spellings of location keys (`email-Primary` and `email-primary`).
    for (const [key, value] of Object.entries(values)) values[key.toLowerCase()] ??= value;
    answer[String(profile.id)] = values;
  }
  const only = Object.values(answer)[0];
  if (single) return { is_error: 0, version: 3, count: Object.keys(only).length, values: only };
  return { is_error: 0, version: 3, count: Object.keys(answer).length, values: answer };
}

const PROFILE_ID_SPEC = { name: 'profile_id', title: 'Profile ID', 'api.required': 1, type: 1 };

/** Profile.getfields: for submit with a profile, its fields merged over their entity's APIv3 metadata. */
export async function profileGetfields(params: Row, entities: Entities, ctx: ActionContext): Promise<Row> {
  const action = String(params.action ?? 'get').toLowerCase();
  const values: Record<string, Row> = { profile_id: { ...PROFILE_ID_SPEC } };
  if (action === 'get') values.contact_id = { name: 'contact_id', title: 'Contact ID', type: 1 };
  if (action === 'submit') values.contact_id = { name: 'contact_id', title: 'Contact ID', type: 1 };
  if (action === 'submit' && present(params.profile_id)) {
    const profile = await loadProfile(entities, params.profile_id);
    const resolve = params.get_options === 'all';
    const metadata = new Map<string, Record<string, Row>>();
    for (const field of await profileFields(entities, Number(profile.id))) {
      if (!metadata.has(field.entity)) {
        const found = ctx.scope.cradle.api.actions({ version: 3, entity: field.entity });
        const known = found.some((listed) => listed.action === 'getfields');
        const answer = known
          ? ((await ctx.call(field.entity, 'getfields', { action: 'create' }, { version: 3, trusted: true })) as Row)
          : { values: {} };
        metadata.set(field.entity, (answer.values ?? {}) as Record<string, Row>);
      }
      const spec: Row = { ...(metadata.get(field.entity)![field.realName] ?? { name: field.realName }) };
      if (resolve && field.realName !== 'id') {
        const options = await ctx
          .call(field.entity, 'getoptions', { field: field.realName }, { version: 3, trusted: true })
          .catch(() => undefined);
        if (options) spec.options = (options as Row).values;
      }
      values[field.apiKey] = {
        ...spec,
        'api.required': field.row.is_required ? 1 : 0,
        title: field.row.label,
        help_pre: field.row.help_pre ?? null,
        help_post: field.row.help_post ?? null,
        entity: field.entity.toLowerCase(),
        weight: field.row.weight,
        'api.aliases': field.aliases,
      };
    }
  }
  return { is_error: 0, version: 3, count: Object.keys(values).length, values };
}
