/**
 * A contact's location records as a profile sees them: the email, phone, address or website a profile field
 * names (of a location type, or the primary one; a phone also of a phone type, a website of a website type).
 */
import type { Entities } from '../entity-core';
import type { ProfileField } from './profile-fields';

type Row = Record<string, unknown>;

/** One location record a profile addresses: fields sharing entity, location and type. */
export interface LocationSlot {
  entity: string;
  location?: number | 'Primary';
  phoneTypeId?: number;
  websiteTypeId?: number;
  fields: ProfileField[];
}

export function slotsOf(fields: ProfileField[]): LocationSlot[] {
  const slots = new Map<string, LocationSlot>();
  for (const field of fields) {
    if (field.entity === 'Contact') continue;
    const id = [field.entity, field.location, field.phoneTypeId, field.websiteTypeId].join('|');
    const slot = slots.get(id) ?? {
      entity: field.entity,
      location: field.location,
      phoneTypeId: field.phoneTypeId,
      websiteTypeId: field.websiteTypeId,
      fields: [],
    };
    slot.fields.push(field);
    slots.set(id, slot);
  }
  return [...slots.values()];
}

/** The conditions that find a slot's record among the contact's. */
export function slotWhere(slot: LocationSlot, contactId: number): Row {
  const where: Row = { contact_id: contactId };
  if (slot.location === 'Primary') where.is_primary = true;
  else if (slot.location !== undefined) where.location_type_id = slot.location;
  if (slot.phoneTypeId !== undefined) where.phone_type_id = slot.phoneTypeId;
  if (slot.websiteTypeId !== undefined) where.website_type_id = slot.websiteTypeId;
  return where;
}

/** The record a slot stands for, or undefined. */
export async function findSlot(entities: Entities, slot: LocationSlot, contactId: number): Promise<Row | undefined> {
  const rows = await entities.get(slot.entity, {
    where: slotWhere(slot, contactId),
    orderBy: [
      { path: 'is_primary', dir: 'DESC' },
      { path: 'id', dir: 'ASC' },
    ].filter((sort) => slot.entity !== 'Website' || sort.path === 'id') as { path: string; dir: 'ASC' | 'DESC' }[],
    limit: 1,
  });
  return rows[0];
}

/** The location type a new primary record gets: the default one, else the first active one. */
export async function defaultLocationType(entities: Entities): Promise<number | undefined> {
  const [row] = await entities.get('LocationType', {
    where: { is_active: true },
    orderBy: [
      { path: 'is_default', dir: 'DESC' },
      { path: 'id', dir: 'ASC' },
    ],
    limit: 1,
  });
  return row ? Number(row.id) : undefined;
}
