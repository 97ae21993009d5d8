/** PaymentProcessorType (4.3.0): a kind of processor; `class_name` names the implementation that pays. */
import type { EntityDef } from '../../entity-core';
import { flag, PROCESSOR_PERMISSIONS, text } from './fields';

const urls = ['site', 'api', 'recur', 'button'] as const;
const urlTitles = { site: 'Site', api: 'API', recur: 'Recurring Payments', button: 'Button' };

const PaymentProcessorType: EntityDef = {
  name: 'PaymentProcessorType',
  table: 'crm_payment_processor_type',
  description: 'A kind of payment processor (Dummy, …): labels for its credentials and the implementation that pays',
  labelField: 'title',
  permissions: PROCESSOR_PERMISSIONS,
  fields: [
    { name: 'id', type: 'Int', title: 'Payment Processor Type ID', required: true, readonly: true },
    text('name', 'Payment Processor Type variable name to be used in code', 64, { required: true, apiRequired: true }),
    text('title', 'Payment Processor Type Title', 127, { required: true, apiRequired: true }),
    text('description', 'Processor Type Description'),
    flag('is_active', 'Processor Type Is Active?', true),
    flag('is_default', 'Processor Type is Default?', false),
    text('user_name_label', 'Label for User Name if used'),
    text('password_label', 'Label for password'),
    text('signature_label', 'Label for Signature'),
    text('subject_label', 'Label for Subject'),
    // Names an implementation in the processor class registry (hook payment.processorClasses).
    text('class_name', 'Suffix for PHP class name implementation', 255, { required: true, apiRequired: true }),
    ...urls.map((url) => text(`url_${url}_default`, `Default Live ${urlTitles[url]} URL`)),
    ...urls.map((url) => text(`url_${url}_test_default`, `Default Test ${urlTitles[url]} URL`)),
    {
      name: 'billing_mode',
      type: 'Int',
      title: 'Billing Mode',
      required: true,
      apiRequired: true,
      // The reference's billing modes (deprecated there, kept for compatibility).
      options: { 1: 'form', 2: 'button', 4: 'notify' },
    },
    flag('is_recur', 'Processor Type Supports Recurring?', false),
    { name: 'payment_type', type: 'Int', title: 'Processor Type Payment Type', default: 1, apiDefault: 1 },
    {
      name: 'payment_instrument_id',
      type: 'Int',
      title: 'Payment Method',
      default: 1,
      apiDefault: 1,
      optionGroup: 'payment_instrument',
    },
  ],
  indexes: [{ name: 'UI_name', fields: ['name'], unique: true }],
};

export default PaymentProcessorType;
