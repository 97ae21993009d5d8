/** The reference's install data for price sets: the visibility options and the default contribution-amount set. */
import type { Knex } from 'knex';
import { seedOptionGroups, type OptionGroupSeeds } from '../entity-option';

export const PRICE_OPTION_GROUPS: OptionGroupSeeds = {
  visibility: {
    title: 'Visibility',
    values: [
      [1, 'public', 'Public'],
      [2, 'admin', 'Admin'],
    ],
  },
};

/** The quick-config set contribution pages use for a single amount: one Text field with one value. */
export async function seedPriceSets(knex: Knex): Promise<void> {
  await seedOptionGroups(knex, PRICE_OPTION_GROUPS);
  const donation = await knex('crm_financial_type').where({ name: 'Donation' }).first('id');
  const [set] = await knex('crm_price_set')
    .insert({
      name: 'default_contribution_amount',
      title: 'Contribution Amount',
      is_active: true,
      extends: '\x012\x01',
      is_quick_config: true,
      is_reserved: true,
      min_amount: 0,
    })
    .returning('id');
  const [field] = await knex('crm_price_field')
    .insert({
      price_set_id: (set as { id: number }).id,
      name: 'contribution_amount',
      label: 'Contribution Amount',
      html_type: 'Text',
      weight: 1,
      is_display_amounts: true,
      options_per_line: 1,
      is_active: true,
      is_required: true,
      is_enter_qty: false,
      visibility_id: 1,
    })
    .returning('id');
  await knex('crm_price_field_value').insert({
    price_field_id: (field as { id: number }).id,
    name: 'contribution_amount',
    label: 'Contribution Amount',
    amount: 1,
    weight: 1,
    is_default: false,
    is_active: true,
    financial_type_id: donation ? (donation as { id: number }).id : null,
    non_deductible_amount: 0,
    visibility_id: 1,
  });
}
