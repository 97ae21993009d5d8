/** Tag and EntityTag behaviour: names and labels fill each other, the author, and where a tag may be used. */
import { KernelError } from '../../kernel';
import {
  listFilterConditions,
  listFilterItems,
  present,
  type Condition,
  type EntityRegistry,
  type SaveContext,
} from '../entity-core';

type Row = Record<string, unknown>;

function invalid(message: string, field: string): KernelError {
  return new KernelError('E_INVALID_PARAMS', message, { details: { error_code: 'invalid value', error_field: field } });
}

export function extendTags(entities: EntityRegistry): void {
  entities.extend('Tag', {
    beforeSave(values: Row, sc: SaveContext) {
      if (sc.existing) return values;
      // Since 5.68 a tag has a label; either one fills the other when only one is given.
      const out = { ...values };
      if (!present(out.label) && present(out.name)) out.label = out.name;
      if (!present(out.name) && present(out.label)) out.name = out.label;
      if (!present(out.created_id) && sc.principal.contactId) out.created_id = sc.principal.contactId;
      return out;
    },
    // EntityTag.tag_id and Tag.parent_id read tags as options: every instance forgets them after a write.
    afterSave: (_row, sc) => entities.optionsChanged(sc.db),
    afterDelete: (_row, sc) => entities.optionsChanged(sc.db),
  });
  entities.extend('EntityTag', { beforeSave: checkUsedFor });
  entities.extend('Contact', {
    // Contact.get `tag` (APIv3): contacts carrying one of the tags, given by id or name.
    beforeGet(params, { api }) {
      if (api !== 3 || !present(params.tag)) return undefined;
      const { tag, ...rest } = params;
      const condition = tagFilter(tag);
      return { params: rest, where: condition ? [condition] : [] };
    },
  });
}

/** Contacts with an EntityTag row for one of the tags (an id, a name, a list, or `{IN: [...]}`). */
export function tagFilter(value: unknown): Condition | null {
  const items = listFilterItems(value);
  if (!items?.length) return null;
  const onContacts: Condition = { path: 'entity_table', op: 'IN', value: ['civicrm_contact', 'crm_contact'] };
  const tags: Condition = { or: listFilterConditions(items, 'tag_id', ['tag_id.name', 'tag_id.label']) };
  return { exists: { entity: 'EntityTag', field: 'entity_id', where: [onContacts, tags] } };
}

/** A tag is attached only where its `used_for` allows, and a tag set itself is never attached. */
async function checkUsedFor(values: Row, sc: SaveContext): Promise<Row> {
  const tagId = values.tag_id ?? sc.existing?.tag_id;
  const table = values.entity_table ?? sc.existing?.entity_table ?? 'civicrm_contact';
  if (!present(tagId)) return values;
  const [tag] = await sc.entities.get('Tag', {
    where: { id: Number(tagId) },
    select: ['name', 'used_for', 'is_tagset'],
  });
  if (!tag) throw invalid(`Tag id ${String(tagId)} not found`, 'tag_id');
  if (tag.is_tagset) throw invalid(`Tag "${String(tag.name)}" is a tag set: tag with its tags instead`, 'tag_id');
  const usedFor = Array.isArray(tag.used_for) ? tag.used_for.map(String) : [];
  if (!usedFor.includes(String(table)))
    throw invalid(`Tag "${String(tag.name)}" is not used for ${String(table)}`, 'tag_id');
  return values;
}
