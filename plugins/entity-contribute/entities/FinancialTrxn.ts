/** FinancialTrxn: a movement of money from one account to another (a payment, a receivable, a refund). */
import type { EntityDef } from '../../entity-core';
import { currency, FINANCIAL_RECORDS, flag, id, money, text } from './fields';

const FinancialTrxn: EntityDef = {
  name: 'FinancialTrxn',
  table: 'crm_financial_trxn',
  description: 'A financial transaction: an amount moved from one account to another',
  permissions: FINANCIAL_RECORDS,
  fields: [
    id('Financial Transaction ID'),
    { name: 'from_financial_account_id', type: 'Int', title: 'From Account', fk: 'FinancialAccount' },
    { name: 'to_financial_account_id', type: 'Int', title: 'To Account', fk: 'FinancialAccount' },
    { name: 'trxn_date', type: 'Timestamp', title: 'Financial Transaction Date', default: { sql: 'now' } },
    money('total_amount', 'Financial Total Amount', { required: true, apiRequired: true }),
    money('fee_amount', 'Financial Fee Amount'),
    money('net_amount', 'Financial Net Amount'),
    currency,
    flag('is_payment', 'Is Payment?', false),
    text('trxn_id', 'Transaction ID'),
    text('trxn_result_code', 'Transaction Result Code'),
    { name: 'status_id', type: 'Int', title: 'Financial Transaction Status', optionGroup: 'contribution_status' },
    { name: 'payment_processor_id', type: 'Int', title: 'Payment Processor' },
    { name: 'payment_instrument_id', type: 'Int', title: 'Payment Method', optionGroup: 'payment_instrument' },
    { name: 'card_type_id', type: 'Int', title: 'Card Type ID' },
    text('check_number', 'Check Number'),
    text('pan_truncation', 'Last 4 digits', 4),
    text('order_reference', 'Order Reference'),
  ],
  indexes: [{ name: 'UI_ftrxn_trxn_id', fields: ['trxn_id'] }],
};

export default FinancialTrxn;
