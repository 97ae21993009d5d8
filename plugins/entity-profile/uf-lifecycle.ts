/**
 * The rules of profiles and their fields: a profile's `name` (from its title), `frontend_title`, creator; a
 * field's name checked against its entity (4.4.6: the retired hidden fields refused), no duplicate field in a
 * profile, weight at the end when not given, label from the field, and the profile's `group_type` kept in step.
 */
import { KernelError } from '../../kernel';
import type { Entities, EntityRegistry, SaveContext } from '../entity-core';
import { CONTACT_TYPES, num, RETIRED_FIELDS, targetOf } from './profile-fields';

type Row = Record<string, unknown>;

const refuse = (message: string, field: string) =>
  new KernelError('E_INVALID_PARAMS', message, { details: { error_code: 0, error_field: field } });

const slug = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 56) || 'profile';

async function uniqueName(entities: Entities, base: string): Promise<string> {
  let name = base;
  for (let suffix = 2; await entities.count('UFGroup', { name }); suffix++) name = `${base}_${suffix}`;
  return name;
}

/** The profile's field types, as the reference keeps them in `group_type`. */
async function refreshGroupType(entities: Entities, groupId: number) {
  const fields = await entities.get('UFField', {
    where: { uf_group_id: groupId, is_active: true },
    select: ['field_type'],
  });
  const types = [...new Set(fields.map((field) => String(field.field_type ?? '')).filter(Boolean))];
  await entities.save('UFGroup', { id: groupId, group_type: types.length ? types.join(',') : null });
}

function checkFieldName(registry: EntityRegistry, merged: Row) {
  const name = String(merged.field_name ?? '');
  if (RETIRED_FIELDS.includes(name.toLowerCase()))
    throw refuse(
      `${name} is not a profile field since 4.4.6: set post_url, cancel_url or add_to_group_id on the profile itself`,
      'field_name',
    );
  const { entity, realName } = targetOf(merged);
  const compiled = registry.find(entity);
  if (!compiled) throw refuse(`The field_name is not valid: ${entity} is not installed`, 'field_name');
  if (!compiled.fields.some((field) => field.name === realName && !field.readonly) || realName === 'id')
    throw refuse(`The field_name is not valid: ${name} is not a field of ${entity}`, 'field_name');
}

async function checkDuplicate(entities: Entities, merged: Row, id: unknown) {
  const same = await entities.get('UFField', {
    where: {
      uf_group_id: merged.uf_group_id,
      field_name: merged.field_name,
      location_type_id: num(merged.location_type_id) ?? null,
      phone_type_id: num(merged.phone_type_id) ?? null,
    },
    select: ['id'],
  });
  if (same.some((row) => row.id !== id))
    throw refuse('The field was not added. It already exists in this profile.', 'field_name');
}

export function extendProfiles(registry: EntityRegistry): void {
  registry.extend('UFGroup', {
    async beforeSave(values, sc: SaveContext) {
      if (sc.existing) return values;
      values.name ??= await uniqueName(sc.entities, slug(String(values.title ?? '')));
      values.frontend_title ??= values.title;
      values.created_id ??= sc.principal.contactId ?? null;
      return values;
    },
  });
  registry.extend('UFField', {
    async beforeSave(values, sc: SaveContext) {
      const merged: Row = { ...(sc.existing ?? {}), ...values };
      if (!sc.existing && merged.field_type === undefined) merged.field_type = values.field_type = 'Contact';
      if ('field_name' in values || 'field_type' in values || 'phone_type_id' in values)
        checkFieldName(registry, merged);
      await checkDuplicate(sc.entities, merged, sc.existing?.id);
      if (!sc.existing && values.weight === undefined) {
        const last = await sc.entities.get('UFField', {
          where: { uf_group_id: merged.uf_group_id },
          select: ['weight'],
          orderBy: [{ path: 'weight', dir: 'DESC' }],
          limit: 1,
        });
        values.weight = last.length ? Number(last[0].weight) + 1 : 1;
      }
      if (!sc.existing && !values.label) {
        const { entity, realName } = targetOf(merged);
        const field = registry.find(entity)?.fields.find((candidate) => candidate.name === realName);
        values.label = field?.title ?? String(merged.field_name);
      }
      if (
        merged.location_type_id !== undefined &&
        merged.location_type_id !== null &&
        CONTACT_TYPES.includes(String(merged.field_type))
      )
        if (targetOf(merged).entity === 'Contact')
          throw refuse('location_type_id is only for location fields', 'location_type_id');
      return values;
    },
    afterSave: (row, sc) => refreshGroupType(sc.entities, Number(row.uf_group_id)),
    afterDelete: async (row, sc) => {
      if (await sc.entities.count('UFGroup', { id: row.uf_group_id }))
        await refreshGroupType(sc.entities, Number(row.uf_group_id));
    },
  });
}
