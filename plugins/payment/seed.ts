/** The reference's install data for payments: the Dummy processor type. */
import type { Knex } from 'knex';

export const DUMMY_TYPE = {
  name: 'Dummy',
  title: 'Dummy Payment Processor',
  description: 'Pays without a network, for tests and demonstrations',
  user_name_label: 'User Name',
  class_name: 'Payment_Dummy',
  url_site_default: 'http://dummy.com',
  url_site_test_default: 'http://dummy.com',
  billing_mode: 1,
  is_recur: true,
  payment_type: 1,
  payment_instrument_id: 1,
  is_active: true,
  is_default: false,
};

export async function seedProcessorTypes(knex: Knex): Promise<void> {
  await knex('crm_payment_processor_type').insert(DUMMY_TYPE).onConflict('name').ignore();
}
