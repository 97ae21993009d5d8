/**
 * Contribution behaviour: the net amount, the default line item (4.3.0; `skipLineItems=1` leaves it out, given
 * `line_items` replace it) and the transactions of its status, all in the contribution's transaction.
 */
import { KernelError } from '../../kernel';
import { singleDefault, type EntityRegistry, type SaveContext } from '../entity-core';
import { addDefaultLineItem, addLineItems, recordStatus } from './ledger';
import { minus, toCents } from './money';

type Row = Record<string, unknown>;
const present = (value: unknown) => value !== undefined && value !== null && value !== '';
const truthy = (value: unknown) => value === true || value === 1 || value === '1' || value === 'true';

function beforeSave(values: Row, sc: SaveContext): Row {
  const out: Row = { ...values };
  const total = out.total_amount ?? sc.existing?.total_amount;
  const fee = out.fee_amount ?? sc.existing?.fee_amount;
  if (present(total)) toCents(total, 'total_amount');
  if (present(fee)) toCents(fee, 'fee_amount');
  // The net amount is what is left of the total after the fee, unless given.
  if (!present(values.net_amount) && present(total) && (present(values.total_amount) || present(values.fee_amount)))
    out.net_amount = minus(total, present(fee) ? fee : 0);
  return out;
}

async function afterSave(row: Row, sc: SaveContext, registry: EntityRegistry): Promise<void> {
  if (sc.existing) return;
  if (present(sc.params.line_items)) await addLineItems(sc.entities, row, sc.params.line_items);
  else if (!truthy(sc.params.skipLineItems)) await addDefaultLineItem(sc.entities, row);
  await recordStatus(sc.entities, row, registry);
  // 4.4.0: soft credits given with the contribution (`soft_credit`: [{contact_id, amount, soft_credit_type_id}]).
  if (present(sc.params.soft_credit)) await addSoftCredits(sc, row);
}

async function addSoftCredits(sc: SaveContext, row: Row): Promise<void> {
  const credits = sc.params.soft_credit;
  if (!Array.isArray(credits) && (typeof credits !== 'object' || credits === null))
    throw new KernelError(
      'E_INVALID_PARAMS',
      'soft_credit must be a list of {contact_id, amount, soft_credit_type_id}',
    );
  for (const credit of Object.values(credits as Row) as Row[]) {
    if (!credit || typeof credit !== 'object' || !present(credit.contact_id))
      throw new KernelError('E_INVALID_PARAMS', 'soft_credit: each credit needs a contact_id');
    await sc.entities.save('ContributionSoft', {
      amount: row.total_amount,
      currency: row.currency,
      ...credit,
      contribution_id: row.id,
    });
  }
}

export function extendContributions(entities: EntityRegistry): void {
  entities.extend('Contribution', { beforeSave, afterSave: (row, sc) => afterSave(row, sc, entities) });
  // The deposit account is remembered (ledger.ts): an account write makes every instance forget it.
  const forget = async (_row: Row, sc: SaveContext) => entities.optionsChanged(sc.db);
  entities.extend('FinancialAccount', { afterSave: forget, afterDelete: forget });
  // One default account per account type (the reference's FinancialAccount::add).
  entities.extend('FinancialAccount', singleDefault('FinancialAccount', 'financial_account_type_id'));
}
