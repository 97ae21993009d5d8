import { definePlugin } from '../../kernel';
import type { EntityRegistry, OptionItem } from '../entity-core';

export default definePlugin(({ services }) => {
  const entities = services.resolve<EntityRegistry>('entities');
  // Every instance must forget its cached option lists once an option write commits.
  const invalidate = {
    afterSave: (_row: unknown, { db }: { db: import('knex').Knex }) => entities.optionsChanged(db),
    beforeDelete: async (_row: unknown, { db }: { db: import('knex').Knex }) => {
      await entities.optionsChanged(db);
    },
  };
  // One default location type: setting is_default clears it elsewhere.
  entities.extend('LocationType', {
    ...invalidate,
    async afterSave(row, { db }) {
      await entities.optionsChanged(db);
      if (row.is_default)
        await db('crm_location_type')
          .whereNot('id', row.id as number)
          .update({ is_default: false });
    },
  });
  entities.extend('OptionGroup', invalidate);
  entities.extend('OptionValue', {
    ...invalidate,
    // One default per option group.
    async afterSave(row, { db }) {
      await entities.optionsChanged(db);
      if (row.is_default)
        await db('crm_option_value')
          .where('option_group_id', row.option_group_id as number)
          .whereNot('id', row.id as number)
          .update({ is_default: false });
    },
    // `value` and `weight` default to the next free number in the group (CRM/Core/BAO/OptionValue.php).
    async beforeSave(values, { db, existing }) {
      if (existing) return;
      const gid = values.option_group_id;
      if (gid === undefined || gid === null) return;
      const [row] = (await db('crm_option_value')
        .where('option_group_id', gid as number)
        .select(
          db.raw(
            "coalesce(max(case when value ~ '^[0-9]+$' then value::int end), 0) + 1 as v, coalesce(max(weight), 0) + 1 as w",
          ),
        )) as Array<{ v: number; w: number }>;
      if (values.value === undefined || values.value === null || values.value === '') values.value = String(row.v);
      if (values.weight === undefined || values.weight === null) values.weight = Number(row.w);
      if (values.name === undefined) values.name = values.label;
      return values;
    },
  });
  // Option groups live in crm_option_value; entity-core's pseudoconstants read them through this.
  entities.setOptionGroupSource(async (db, group) => {
    const rows = (await db('crm_option_value as v')
      .join('crm_option_group as g', 'g.id', 'v.option_group_id')
      .where('g.name', group)
      .andWhere('v.is_active', true)
      .orderBy([{ column: 'v.weight' }, { column: 'v.id' }])
      .select('v.value', 'v.name', 'v.label')) as OptionItem[];
    return rows.map((r) => ({ value: String(r.value), name: r.name ?? r.label, label: r.label }));
  });
});
