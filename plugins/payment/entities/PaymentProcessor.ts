/**
 * PaymentProcessor (4.3.0): one configured processor of a type, live or test (`is_test`); its password and
 * signature are secrets, stored encrypted and shown only to administrators.
 */
import type { EntityDef } from '../../entity-core';
import { flag, PROCESSOR_PERMISSIONS, SECRET_HOLDERS, text } from './fields';

const PaymentProcessor: EntityDef = {
  name: 'PaymentProcessor',
  table: 'crm_payment_processor',
  description: 'A configured payment processor (live or test) of a processor type, with its credentials',
  labelField: 'title',
  permissions: PROCESSOR_PERMISSIONS,
  fields: [
    { name: 'id', type: 'Int', title: 'Payment Processor ID', required: true, readonly: true },
    { name: 'domain_id', type: 'Int', title: 'Domain ID', required: true, default: 1, apiDefault: 1 },
    text('name', 'Payment Processor Name', 64, { required: true, apiRequired: true }),
    // Defaults to the frontend title, then the name (register.ts).
    text('title', 'Payment Processor Title', 255, { required: true }),
    text('frontend_title', 'Payment Processor Frontend Title', 255, { required: true }),
    text('description', 'Processor Description'),
    {
      name: 'payment_processor_type_id',
      type: 'Int',
      title: 'Type ID',
      required: true,
      apiRequired: true,
      fk: 'PaymentProcessorType',
      onDelete: 'restrict',
      pseudoEntity: { entity: 'PaymentProcessorType', labelField: 'title', nameField: 'name' },
    },
    flag('is_active', 'Processor is Active?', true),
    flag('is_default', 'Processor Is Default?', false),
    flag('is_test', 'Is Test Processor?', false),
    text('user_name', 'User Name'),
    { name: 'password', type: 'Text', title: 'Password', secret: SECRET_HOLDERS, encrypted: true },
    { name: 'signature', type: 'Text', title: 'Signature', secret: SECRET_HOLDERS, encrypted: true },
    text('url_site', 'Site URL'),
    text('url_api', 'API URL'),
    text('url_recur', 'Recurring Payments URL'),
    text('url_button', 'Button URL'),
    text('subject', 'Subject'),
    // Copied from the type when omitted (register.ts), as are billing_mode, is_recur and payment_type.
    text('class_name', 'Suffix for PHP class name implementation'),
    { name: 'billing_mode', type: 'Int', title: 'Processor Billing Mode', required: true },
    flag('is_recur', 'Processor Supports Recurring?', false),
    { name: 'payment_type', type: 'Int', title: 'Payment Type', default: 1 },
    {
      name: 'payment_instrument_id',
      type: 'Int',
      title: 'Payment Method',
      default: 1,
      optionGroup: 'payment_instrument',
    },
    { name: 'accepted_credit_cards', type: 'Text', title: 'Accepted Credit Cards', serialize: 'json' },
  ],
  indexes: [{ name: 'UI_name_test_domain_id', fields: ['name', 'is_test', 'domain_id'], unique: true }],
};

export default PaymentProcessor;
