/**
 * How a profile's UFField rows map to API fields: the entity each belongs to (the contact, or its email, phone,
 * address or website of a location type), the real field name, and the key the Profile API uses for it
 * (`email-Primary`, `phone-1-2`, `street_address-1`; lower-cased in Profile.getfields with the mixed-case alias).
 */
import { KernelError } from '../../kernel';
import type { Entities } from '../entity-core';

type Row = Record<string, unknown>;

export const CONTACT_TYPES = ['Contact', 'Individual', 'Organization', 'Household'];
export const LOCATION_ENTITIES = ['Email', 'Phone', 'Address', 'Website'];

/** Field names that always belong to a location record, whatever the field's type says. */
const LOCATION_FIELDS: Record<string, string> = {
  street_address: 'Address',
  street_number: 'Address',
  supplemental_address_1: 'Address',
  supplemental_address_2: 'Address',
  supplemental_address_3: 'Address',
  postal_code: 'Address',
  city: 'Address',
  state_province: 'Address',
  state_province_id: 'Address',
  country: 'Address',
  country_id: 'Address',
  county: 'Address',
  county_id: 'Address',
  email: 'Email',
  phone: 'Phone',
  phone_ext: 'Phone',
  url: 'Website',
};

/** Profile field names whose API field has another name. */
const REAL_NAMES: Record<string, string> = {
  state_province: 'state_province_id',
  country: 'country_id',
  county: 'county_id',
  gender: 'gender_id',
  prefix: 'prefix_id',
  suffix: 'suffix_id',
};

/**
 * Hidden fields of old profile forms, now the profile's own settings (UFGroup `post_url`, `cancel_url`,
 * `add_to_group_id`): never a profile field since 4.4.6.
 */
export const RETIRED_FIELDS = ['post_url', 'cancel_url', 'add_to_group_id', 'add_to_group'];

export interface ProfileField {
  /** The key Profile.get answers with (`email-Primary`, `phone-1-2`, `first_name`). */
  key: string;
  /** The key Profile.getfields and Profile.submit use (lower case; `gender_id` for `gender`). */
  apiKey: string;
  /** Other spellings Profile.submit accepts. */
  aliases: string[];
  entity: string;
  realName: string;
  /** The location type id, 'Primary' for the primary record, or undefined for contact fields. */
  location?: number | 'Primary';
  phoneTypeId?: number;
  websiteTypeId?: number;
  row: Row;
}

export const num = (value: unknown) =>
  value === null || value === undefined || value === '' ? undefined : Number(value);

/** The entity and real field name a UFField stands for. */
export function targetOf(row: Row): { entity: string; realName: string } {
  const name = String(row.field_name);
  const type = String(row.field_type ?? 'Contact');
  let entity = CONTACT_TYPES.includes(type) ? 'Contact' : type;
  if (LOCATION_FIELDS[name]) entity = LOCATION_FIELDS[name];
  if (num(row.phone_type_id) !== undefined) entity = 'Phone';
  if (num(row.website_type_id) !== undefined) entity = 'Website';
  return { entity, realName: REAL_NAMES[name] ?? name };
}

export function describeField(row: Row): ProfileField {
  const { entity, realName } = targetOf(row);
  const locationType = num(row.location_type_id);
  const phoneTypeId = num(row.phone_type_id);
  const websiteTypeId = num(row.website_type_id);
  let key = String(row.field_name);
  let location: ProfileField['location'];
  if (entity !== 'Website' && locationType !== undefined) location = locationType;
  else if (LOCATION_ENTITIES.includes(entity) && entity !== 'Website') location = 'Primary';
  if (location !== undefined) key += `-${location}`;
  if (phoneTypeId !== undefined) key += `-${phoneTypeId}`;
  if (websiteTypeId !== undefined) key += `-${websiteTypeId}`;
  const isLocation = key.includes('-');
  const apiKey = isLocation ? key.toLowerCase() : realName;
  const aliases = [...new Set([key, String(row.field_name)])].filter((alias) => alias !== apiKey);
  return { key, apiKey, aliases, entity, realName, location, phoneTypeId, websiteTypeId, row };
}

/** The active profile (by id or name) or the reference's error. */
export async function loadProfile(entities: Entities, profileId: unknown): Promise<Row> {
  const isId = typeof profileId === 'number' || /^\d+$/.test(String(profileId));
  const where = isId ? { id: Number(profileId) } : { name: String(profileId) };
  const [profile] = await entities.get('UFGroup', { where });
  if (!profile || !profile.is_active)
    throw new KernelError('E_INVALID_PARAMS', `Invalid value for profile_id : ${String(profileId)}`, {
      details: { error_code: 0, error_field: 'profile_id' },
    });
  return profile;
}

/** The profile's active fields, by weight, for the entities this service has. */
export async function profileFields(entities: Entities, profileId: number): Promise<ProfileField[]> {
  const rows = await entities.get('UFField', {
    where: { uf_group_id: profileId, is_active: true },
    orderBy: [
      { path: 'weight', dir: 'ASC' },
      { path: 'id', dir: 'ASC' },
    ],
  });
  return rows.map(describeField);
}
