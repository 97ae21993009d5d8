/** Contribution: money a contact gave (or owes), with its line items and financial transactions (register.ts). */
import type { EntityDef } from '../../entity-core';
import { currency, flag, id, money, text } from './fields';

const Contribution: EntityDef = {
  name: 'Contribution',
  table: 'crm_contribution',
  description: 'A payment (or a pledge of one) from a contact, of a financial type',
  labelField: 'source',
  // Row access follows the contributor (users' contact row rule through ownerField).
  ownerField: 'contact_id',
  permissions: {
    get: { allOf: ['access CRM', 'access contributions'] },
    meta: 'access CRM',
    delete: { allOf: ['access CRM', 'access contributions', 'delete contributions'] },
    default: { allOf: ['access CRM', 'access contributions', 'edit contributions'] },
  },
  fields: [
    id('Contribution ID', 'contribution_id'),
    {
      name: 'contact_id',
      type: 'Int',
      title: 'Contact ID',
      required: true,
      apiRequired: true,
      fk: 'Contact',
      onDelete: 'cascade',
      uniqueName: 'contribution_contact_id',
    },
    {
      name: 'financial_type_id',
      type: 'Int',
      title: 'Financial Type',
      apiRequired: true,
      fk: 'FinancialType',
      onDelete: 'set null',
      // 4.3: contribution types became financial types; the old name is still taken.
      aliases: ['contribution_type_id'],
      pseudoEntity: { entity: 'FinancialType', labelField: 'name', nameField: 'name' },
    },
    {
      name: 'contribution_page_id',
      type: 'Int',
      title: 'Contribution Page ID',
      fk: 'ContributionPage',
      onDelete: 'set null',
    },
    { name: 'payment_instrument_id', type: 'Int', title: 'Payment Method', optionGroup: 'payment_instrument' },
    { name: 'receive_date', type: 'Timestamp', title: 'Contribution Date', apiDefault: 'now' },
    money('non_deductible_amount', 'Non-deductible Amount', { default: 0 }),
    money('total_amount', 'Total Amount', { required: true, apiRequired: true }),
    money('fee_amount', 'Fee Amount'),
    money('net_amount', 'Net Amount'),
    text('trxn_id', 'Transaction ID'),
    text('invoice_id', 'Invoice Reference'),
    text('invoice_number', 'Invoice Number'),
    currency,
    { name: 'cancel_date', type: 'Timestamp', title: 'Cancelled / Refunded Date' },
    { name: 'cancel_reason', type: 'Text', title: 'Cancellation / Refund Reason' },
    { name: 'receipt_date', type: 'Timestamp', title: 'Receipt Date' },
    { name: 'thankyou_date', type: 'Timestamp', title: 'Thank-you Date' },
    text('source', 'Contribution Source', 255, { uniqueName: 'contribution_source' }),
    { name: 'amount_level', type: 'Text', title: 'Amount Label' },
    { name: 'contribution_recur_id', type: 'Int', title: 'Recurring Contribution ID' },
    flag('is_test', 'Test', false),
    flag('is_pay_later', 'Is a Pay Later Contribution', false),
    {
      name: 'contribution_status_id',
      type: 'Int',
      title: 'Contribution Status',
      default: 1,
      apiDefault: 1,
      optionGroup: 'contribution_status',
      uniqueName: 'contribution_status_id',
    },
    text('check_number', 'Check Number'),
    money('tax_amount', 'Tax Amount'),
    { name: 'revenue_recognition_date', type: 'Timestamp', title: 'Revenue Recognition Date' },
    flag('is_template', 'Is a Template Contribution', false),
  ],
  indexes: [
    { name: 'UI_contrib_trxn_id', fields: ['trxn_id'], unique: true },
    { name: 'UI_contrib_invoice_id', fields: ['invoice_id'], unique: true },
    { name: 'index_contact_receive', fields: ['contact_id', 'receive_date'] },
    { name: 'received_date', fields: ['receive_date'] },
  ],
};

export default Contribution;
