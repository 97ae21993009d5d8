/** The reference's install data: option groups, financial types, their accounts and the links between them. */
import type { Knex } from 'knex';
import { seedOptionGroups, type OptionGroupSeeds } from '../entity-option';

export const CONTRIBUTE_OPTION_GROUPS: OptionGroupSeeds = {
  contribution_status: {
    title: 'Contribution Status',
    values: [
      [1, 'Completed'],
      [2, 'Pending'],
      [3, 'Cancelled'],
      [4, 'Failed'],
      [5, 'In Progress'],
      [6, 'Overdue'],
      [7, 'Refunded'],
      [8, 'Partially paid'],
      [9, 'Pending refund'],
      [10, 'Chargeback'],
      [11, 'Template'],
    ],
  },
  payment_instrument: {
    title: 'Payment Methods',
    values: [
      [1, 'Credit Card'],
      [2, 'Debit Card'],
      [3, 'Cash'],
      [4, 'Check'],
      [5, 'EFT'],
    ],
  },
  financial_account_type: {
    title: 'Financial Account Type',
    values: [
      [1, 'Asset'],
      [2, 'Liability'],
      [3, 'Revenue'],
      [4, 'Cost of Sales'],
      [5, 'Expenses'],
    ],
  },
  account_relationship: {
    title: 'Account Relationship',
    values: [
      [1, 'Income Account is'],
      [2, 'Credit/Contra Revenue Account is'],
      [3, 'Accounts Receivable Account is'],
      [4, 'Credit Liability Account is'],
      [5, 'Expense Account is'],
      [6, 'Asset Account is'],
      [7, 'Cost of Sales Account is'],
      [8, 'Premiums Inventory Account is'],
      [9, 'Discounts Account is'],
      [10, 'Sales Tax Account is'],
      [11, 'Chargeback Account is'],
      [12, 'Deferred Revenue Account is'],
    ],
  },
};

/** name, type (option value), accounting code, type code, deductible, default. */
const ACCOUNTS: Array<[string, number, string, string, boolean, boolean]> = [
  ['Donation', 3, '4200', 'INC', true, true],
  ['Member Dues', 3, '4400', 'INC', true, false],
  ['Campaign Contribution', 3, '4100', 'INC', false, false],
  ['Event Fee', 3, '4300', 'INC', false, false],
  ['Banking Fees', 5, '5200', 'EXP', false, false],
  ['Deposit Bank Account', 1, '1100', 'BANK', false, true],
  ['Accounts Receivable', 1, '1200', 'AR', false, false],
  ['Payment Processor Account', 1, '1150', 'BANK', false, false],
  ['Premiums', 4, '5100', 'COGS', false, false],
  ['Premiums inventory', 1, '1375', 'OCASSET', false, false],
  ['Discounts', 3, '4900', 'INC', false, false],
];

/** The seeded financial types (name, deductible): each books income to its own account. */
const TYPES: Array<[string, boolean]> = [
  ['Donation', true],
  ['Member Dues', true],
  ['Campaign Contribution', false],
  ['Event Fee', false],
];

export async function seedContribute(knex: Knex): Promise<void> {
  await seedOptionGroups(knex, CONTRIBUTE_OPTION_GROUPS);
  const accountIds = new Map<string, number>();
  for (const [name, type, code, typeCode, deductible, isDefault] of ACCOUNTS) {
    const [row] = await knex('crm_financial_account')
      .insert({
        name,
        financial_account_type_id: type,
        accounting_code: code,
        account_type_code: typeCode,
        is_deductible: deductible,
        is_reserved: false,
        is_active: true,
        is_default: isDefault,
      })
      .returning('id');
    accountIds.set(name, Number((row as { id: number }).id));
  }
  for (const [name, deductible] of TYPES) {
    const [row] = await knex('crm_financial_type')
      .insert({ name, is_deductible: deductible, is_reserved: false, is_active: true })
      .returning('id');
    const typeId = Number((row as { id: number }).id);
    // Income → its own account, receivables, bank fees and premiums as the reference links them.
    const links: Array<[number, string]> = [
      [1, name],
      [3, 'Accounts Receivable'],
      [5, 'Banking Fees'],
      [7, 'Premiums'],
    ];
    await knex('crm_entity_financial_account').insert(
      links.map(([relationship, account]) => ({
        entity_table: 'civicrm_financial_type',
        entity_id: typeId,
        account_relationship: relationship,
        financial_account_id: accountIds.get(account),
      })),
    );
  }
}

/** Migration 002: the soft credit types (4.4.0). */
export const SOFT_CREDIT_TYPES: OptionGroupSeeds = {
  soft_credit_type: {
    title: 'Soft Credit Types',
    values: [
      [1, 'in_honor_of', 'In Honor of'],
      [2, 'in_memory_of', 'In Memory of'],
      [3, 'solicited', 'Solicited'],
      [4, 'household', 'Household'],
      [5, 'workplace', 'Workplace Giving'],
      [6, 'foundation_affiliate', 'Foundation Affiliate'],
      [7, '3rd-party_service', '3rd-party Service'],
      [8, 'donor-advised_fund', 'Donor-advised Fund'],
      [9, 'matched_gift', 'Matched Gift'],
      [10, 'pcp', 'Personal Campaign Page'],
      [11, 'gift', 'Gift'],
    ],
  },
};
