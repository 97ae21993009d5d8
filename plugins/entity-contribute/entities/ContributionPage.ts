/** ContributionPage: a page contributions are made through (ContributionPage.submit, 4.5.0: page-submit.ts). */
import type { EntityDef, FieldDef } from '../../entity-core';
import { flag, id, money, text } from './fields';

const longText = (name: string, title: string): FieldDef => ({ name, type: 'Text', title });

const ContributionPage: EntityDef = {
  name: 'ContributionPage',
  table: 'crm_contribution_page',
  description: 'A page contributions are made through: its financial type, payment processors and amounts',
  labelField: 'title',
  permissions: {
    // Anyone who may contribute online may read the pages; administrators set them up.
    get: { anyOf: [{ allOf: ['access CRM', 'access contributions'] }, 'make online contributions'] },
    meta: 'access CRM',
    default: { allOf: ['access CRM', 'administer CRM'] },
  },
  fields: [
    id('Contribution Page ID'),
    text('title', 'Page Name', 255, { required: true, apiRequired: true }),
    // Default to the title (lifecycle in page-submit.ts's extendPages).
    text('frontend_title', 'Public Title', 255, { required: true }),
    text('name', 'Unique Name', 255, { required: true }),
    longText('intro_text', 'Contribution Page Introduction Text'),
    {
      name: 'financial_type_id',
      type: 'Int',
      title: 'Financial Type ID',
      apiRequired: true,
      fk: 'FinancialType',
      onDelete: 'set null',
      pseudoEntity: { entity: 'FinancialType', labelField: 'name', nameField: 'name' },
    },
    {
      // Ids of PaymentProcessor records (payment plugin); `payment_processor_id` is taken as an alias.
      name: 'payment_processor',
      type: 'String',
      title: 'Payment Processor',
      maxlength: 128,
      serialize: 'separator',
      aliases: ['payment_processor_id'],
    },
    flag('is_credit_card_only', 'Is Credit Card Only?', false),
    flag('is_monetary', 'Is Monetary', true),
    flag('is_recur', 'Is Recurring', false),
    flag('is_confirm_enabled', 'Confirmation Page?', true),
    {
      name: 'recur_frequency_unit',
      type: 'String',
      title: 'Recurring Frequency',
      maxlength: 128,
      serialize: 'separator',
    },
    flag('is_recur_interval', 'Support Recurring Intervals', false),
    flag('is_recur_installments', 'Recurring Installments?', false),
    flag('adjust_recur_start_date', 'Adjust Recurring Start Date', false),
    flag('is_pay_later', 'Pay Later', false),
    longText('pay_later_text', 'Pay Later Text'),
    longText('pay_later_receipt', 'Pay Later Receipt'),
    { name: 'is_partial_payment', type: 'Boolean', title: 'Allow Partial Payment', default: false, apiDefault: 0 },
    text('initial_amount_label', 'Initial Amount Label'),
    longText('initial_amount_help_text', 'Initial Amount Help Text'),
    money('min_initial_amount', 'Min Initial Amount'),
    flag('is_allow_other_amount', 'Allow Other Amounts', false),
    { name: 'default_amount_id', type: 'Int', title: 'Default Amount' },
    money('min_amount', 'Minimum Amount'),
    money('max_amount', 'Maximum Amount'),
    money('goal_amount', 'Goal Amount'),
    text('thankyou_title', 'Thank-you Title'),
    longText('thankyou_text', 'Thank-you Text'),
    longText('thankyou_footer', 'Thank-you Footer'),
    flag('is_email_receipt', 'Send email Receipt', false),
    text('receipt_from_name', 'Receipt From'),
    text('receipt_from_email', 'Receipt From email'),
    text('cc_receipt', 'Receipt cc'),
    text('bcc_receipt', 'Receipt bcc'),
    longText('receipt_text', 'Receipt Text'),
    flag('is_active', 'Is Page Active?', true),
    longText('footer_text', 'Footer Text'),
    flag('amount_block_is_active', 'Is Amount Block Active?', true),
    { name: 'start_date', type: 'Timestamp', title: 'Contribution Page Start Date' },
    { name: 'end_date', type: 'Timestamp', title: 'Contribution Page End Date' },
    { name: 'created_id', type: 'Int', title: 'Created By Contact ID', fk: 'Contact', onDelete: 'set null' },
    { name: 'created_date', type: 'Timestamp', title: 'Contribution Page Created Date' },
    { name: 'currency', type: 'String', title: 'Contribution Page Currency', maxlength: 3 },
    { name: 'campaign_id', type: 'Int', title: 'Campaign ID' },
    flag('is_share', 'Is Contribution Page Shared?', true),
    flag('is_billing_required', 'Is billing block required', false),
  ],
  indexes: [{ name: 'UI_name', fields: ['name'], unique: true }],
};

export default ContributionPage;
