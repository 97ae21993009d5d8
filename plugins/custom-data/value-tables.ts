/**
 * Custom data as metadata: each custom group is an entity (`Custom_<group name>`, its own table) and each
 * of its fields a column; the extended entity gets the references that reach them — `<group name>` for
 * APIv4 paths (`Contact.get select: ['Extra.colour']`) and `custom_<id>` for APIv3. Built from the rows of
 * crm_custom_group and crm_custom_field only; names were checked when those rows were written.
 */
import type { EntityDef, FieldDef, FieldType, IndexDef } from '../entity-core';
import { extendedName } from './entities/CustomGroup';

export interface GroupRow {
  id: number;
  name: string;
  title: string;
  extends: string;
  /** Sub-types the group applies to, separator-bookended (activity types, contact sub-types…); null: all. */
  extends_entity_column_value: string | null;
  table_name: string;
  is_multiple: boolean;
  is_active: boolean;
}

export interface FieldRow {
  id: number;
  custom_group_id: number;
  name: string;
  label: string;
  data_type: string;
  html_type: string;
  column_name: string;
  text_length: number | null;
  is_searchable: boolean;
  is_active: boolean;
  serialize: number;
  fk_entity: string | null;
  /** What deleting the referenced record does to an EntityReference value: `set_null` (default) or `cascade`. */
  fk_entity_on_delete?: string | null;
  date_format: string | null;
  /** The option group's name (joined), when the field has options. */
  option_group: string | null;
}

/** What the run-time registry takes: the value entities, and the fields added to the entities they extend. */
export interface CustomMetadata {
  entities: EntityDef[];
  fields: Map<string, FieldDef[]>;
  /** `custom_<id>` → where it lives (APIv3 keys, CustomValue). */
  byId: Map<number, { group: GroupRow; field: FieldRow; entity: string }>;
}

export const valueEntityName = (group: Pick<GroupRow, 'name'>) => `Custom_${group.name}`;

/** The stored type of a custom field's data type. */
export function fieldType(field: Pick<FieldRow, 'data_type' | 'date_format' | 'html_type'>): Partial<FieldDef> {
  const type = (t: FieldType, extra: Partial<FieldDef> = {}): Partial<FieldDef> => ({ type: t, ...extra });
  switch (field.data_type) {
    case 'Int':
      return type('Int');
    case 'Float':
      return type('Float');
    case 'Money':
      return type('Money');
    case 'Memo':
      return type('Text');
    case 'Date':
      // The reference stores every custom date as a date-time; a format without a time shows the day.
      return type('Timestamp');
    case 'Boolean':
      return type('Boolean');
    case 'StateProvince':
      return type('Int', { fk: 'StateProvince' });
    case 'Country':
      return type('Int', { fk: 'Country' });
    case 'ContactReference':
      return type('Int', { fk: 'Contact' });
    case 'EntityReference':
    case 'File':
      return type('Int');
    case 'Link':
      return type('Url');
    default:
      return type('String');
  }
}

/** A multi-valued field (check boxes, multi-select): stored separator-bookended, read as a list (4.6.7). */
export const isMultiValued = (field: Pick<FieldRow, 'html_type' | 'serialize'>) =>
  field.serialize === 1 || field.html_type === 'CheckBox' || field.html_type === 'Multi-Select';

/**
 * The entity a single-valued reference field points at, when it is installed: an EntityReference's `fk_entity`
 * (deleting the record empties the value, or with `fk_entity_on_delete: cascade` deletes the custom record), a
 * File field's File. A foreign key then keeps the ids real, as the reference's constraint does.
 */
function referenceOf(field: FieldRow, installed: (entity: string) => boolean): Pick<FieldDef, 'fk' | 'onDelete'> {
  if (isMultiValued(field)) return {};
  const target = field.data_type === 'EntityReference' ? field.fk_entity : field.data_type === 'File' ? 'File' : null;
  if (!target || !installed(target)) return {};
  return {
    fk: target,
    onDelete: field.fk_entity_on_delete === 'cascade' && target !== 'File' ? 'cascade' : 'set null',
  };
}

function valueField(field: FieldRow, installed: (entity: string) => boolean): FieldDef {
  const typed = fieldType(field);
  const out: FieldDef = {
    name: field.name,
    column: field.column_name,
    title: field.label,
    type: typed.type!,
    ...(typed.fk ? { fk: typed.fk, onDelete: 'set null' as const } : referenceOf(field, installed)),
  };
  if (out.type === 'String' || out.type === 'Url') out.maxlength = field.text_length ?? 255;
  if (field.option_group) out.optionGroup = field.option_group;
  if (isMultiValued(field)) {
    out.serialize = 'separator';
    out.type = 'String';
    out.maxlength = 255;
  }
  return out;
}

/**
 * The entity of one custom group's table. `extended` is the entity the group extends, as declared; `installed`
 * tells which entities reference fields may point at.
 */
export function valueEntity(
  group: GroupRow,
  fields: FieldRow[],
  extended: EntityDef,
  installed: (entity: string) => boolean,
): EntityDef {
  const indexes: IndexDef[] = [
    group.is_multiple
      ? { name: 'entity_id', fields: ['entity_id'] }
      : { name: 'unique_entity_id', fields: ['entity_id'], unique: true },
  ];
  for (const field of fields)
    if (field.is_searchable) indexes.push({ name: `${field.column_name}`, fields: [field.name] });
  return {
    name: valueEntityName(group),
    table: group.table_name,
    description: `Custom data: ${group.title} (${group.extends})`,
    apis: [4],
    permissions: extended.permissions,
    ...(extended.name === 'Contact' ? { ownerField: 'entity_id' } : {}),
    indexes,
    fields: [
      { name: 'id', type: 'Int', title: 'Custom Value ID', required: true, readonly: true },
      {
        name: 'entity_id',
        type: 'Int',
        title: `${extended.name} ID`,
        required: true,
        apiRequired: true,
        fk: extended.name,
        onDelete: 'cascade',
      },
      ...fields.map((field) => valueField(field, installed)),
    ],
  };
}

/**
 * The metadata of every active custom group whose extended entity is installed. `entityOf` finds an installed
 * entity's declaration.
 */
export function customMetadata(
  groups: GroupRow[],
  fields: FieldRow[],
  entityOf: (name: string) => EntityDef | undefined,
): CustomMetadata {
  const meta: CustomMetadata = { entities: [], fields: new Map(), byId: new Map() };
  for (const group of groups) {
    const extended = entityOf(extendedName(group.extends, (name) => !!entityOf(name)) ?? '');
    if (!extended || !group.is_active) continue;
    const own = fields.filter((field) => field.custom_group_id === group.id && field.is_active);
    const entity = valueEntity(group, own, extended, (name) => !!entityOf(name));
    meta.entities.push(entity);
    const added = meta.fields.get(extended.name) ?? [];
    meta.fields.set(extended.name, added);
    const reference = { entity: entity.name, fk: 'entity_id' };
    // APIv4: `<group>.<field>` through a reference to the group's row (one row per record, or the first).
    if (!group.is_multiple)
      added.push({
        name: group.name,
        type: 'Int',
        title: group.title,
        fk: entity.name,
        readonly: true,
        listFields: true,
        related: { ...reference, field: 'id' },
      });
    for (const field of own) {
      meta.byId.set(field.id, { group, field, entity: entity.name });
      if (group.is_multiple) continue;
      const stored = entity.fields.find((item) => item.name === field.name)!;
      // APIv3: `custom_<id>`, read through the same join; written by the lifecycle tap (v3-writes.ts).
      const { column: _column, fk: _fk, onDelete: _onDelete, ...shape } = stored;
      const attributes = {
        label: field.label,
        groupTitle: group.title,
        custom_group_id: String(group.id),
        custom_field_id: String(field.id),
        extends: group.extends,
        data_type: field.data_type,
        html_type: field.html_type,
        is_searchable: field.is_searchable ? '1' : '0',
        table_name: group.table_name,
        column_name: field.column_name,
        where: `${group.table_name}.${field.column_name}`,
      };
      added.push({
        ...shape,
        name: `custom_${field.id}`,
        custom: attributes,
        related: { ...reference, field: field.name },
      });
    }
  }
  return meta;
}
