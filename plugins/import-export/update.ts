/**
 * A row that matched a contact under `update` (its non-empty cells overwrite) or `fill` (they only fill
 * what is empty): the contact's fields and custom values, an email or phone it lacks, its primary address,
 * and the groups and tags it is not in yet (never removed).
 */
import type { Entities } from '../entity-core';
import type { Prepared, Rule } from './batch';

type Row = Record<string, unknown>;

const empty = (value: unknown) => value === undefined || value === null || value === '';
const lower = (value: unknown) => String(value ?? '').toLowerCase();

/** Under `fill`, the given values whose stored value is empty; under `update`, all of them. */
async function onlyEmpty(entities: Entities, entity: string, id: number, values: Row, names: Record<string, string>) {
  const keys = Object.keys(values);
  if (!keys.length) return values;
  const [stored] = await entities.get(entity, { where: { id }, select: keys.map((k) => names[k] ?? k) });
  return Object.fromEntries(Object.entries(values).filter(([k]) => empty(stored?.[names[k] ?? k])));
}

async function block(
  entities: Entities,
  entity: 'Email' | 'Phone',
  field: string,
  id: number,
  value: string,
  rule: Rule,
) {
  const held = await entities.get(entity, { where: { contact_id: id }, select: [field] });
  if (held.some((row) => lower(row[field]) === lower(value))) return;
  if (rule === 'fill' && held.length) return;
  await entities.save(entity, { contact_id: id, [field]: value, is_primary: 1 });
}

async function address(entities: Entities, id: number, given: Row, rule: Rule) {
  const [primary] = await entities.get('Address', { where: { contact_id: id, is_primary: true }, select: ['id'] });
  if (!primary) return void (await entities.save('Address', { ...given, contact_id: id, is_primary: 1 }));
  const values = rule === 'fill' ? await onlyEmpty(entities, 'Address', Number(primary.id), given, {}) : given;
  if (Object.keys(values).length) await entities.save('Address', { ...values, id: primary.id });
}

export async function updateContact(entities: Entities, item: Prepared, id: number, rule: Rule): Promise<void> {
  const { record } = item;
  const own: Row = { ...record.contact };
  delete own.contact_type;
  let values: Row = { ...own, ...record.custom };
  if (rule === 'fill') values = await onlyEmpty(entities, 'Contact', id, values, record.customNames);
  if (Object.keys(values).length) await entities.save('Contact', { ...values, id });
  if (record.email) await block(entities, 'Email', 'email', id, record.email, rule);
  if (record.phone) await block(entities, 'Phone', 'phone', id, record.phone, rule);
  if (record.address) await address(entities, id, record.address, rule);
  if (item.groups.length) {
    const held = new Set(
      (await entities.get('GroupContact', { where: { contact_id: id }, select: ['group_id'] })).map((r) =>
        Number(r.group_id),
      ),
    );
    const rows = item.groups.filter((g) => !held.has(g)).map((g) => ({ group_id: g, contact_id: id, status: 'Added' }));
    if (rows.length) await entities.saveMany('GroupContact', rows);
  }
  if (item.tags.length) {
    const held = new Set(
      (
        await entities.get('EntityTag', {
          where: { entity_id: id, entity_table: 'civicrm_contact' },
          select: ['tag_id'],
        })
      ).map((r) => Number(r.tag_id)),
    );
    const rows = item.tags
      .filter((t) => !held.has(t))
      .map((t) => ({ entity_table: 'civicrm_contact', entity_id: id, tag_id: t }));
    if (rows.length) await entities.saveMany('EntityTag', rows);
  }
}
