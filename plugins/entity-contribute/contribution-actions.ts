/**
 * Contribution.completetransaction (4.3.4): a Pending contribution becomes Completed, paid from its
 * receivable into the deposit account, and what it paid for is updated through the `contribute.completed` hook.
 */
import { KernelError, type ActionRegistrar } from '../../kernel';
import type { Entities, EntityService } from '../entity-core';
import { contributionCompleted } from './hooks';
import { accountOf, depositAccount, recordTrxn, RELATIONSHIP, STATUS } from './ledger';

type Row = Record<string, unknown>;

const PARAMS = {
  type: 'object',
  required: ['id'],
  properties: {
    id: { type: ['integer', 'string'], pattern: '^[0-9]+$' },
    trxn_id: { type: 'string', maxLength: 255 },
    trxn_date: { type: 'string' },
    fee_amount: { type: ['number', 'string'] },
    payment_instrument_id: { type: ['integer', 'string'] },
    is_email_receipt: { type: ['integer', 'string', 'boolean'] },
  },
};

export function defineContributionActions(
  actions: ActionRegistrar,
  service: () => EntityService,
  runCompleted: (contribution: Row, entities: Entities) => Promise<void>,
): void {
  actions.define({
    version: 3,
    entity: 'Contribution',
    action: 'completetransaction',
    description: 'Completes a Pending contribution: records the payment and updates what it paid for',
    params: PARAMS,
    permission: { allOf: ['access CRM', 'access contributions', 'edit contributions'] },
    writes: true,
    handler: async (raw, ctx) => {
      const params = raw as Row;
      const entities = service().bind({ db: ctx.db, principal: ctx.principal, trusted: ctx.trusted, scope: ctx.scope });
      const checked = service().bind({ db: ctx.db, principal: ctx.principal, scope: ctx.scope });
      const [found] = await checked.get('Contribution', { where: { id: Number(params.id) }, limit: 1 });
      if (!found) throw new KernelError('E_NOT_FOUND', `Contribution id ${String(params.id)} not found`);
      if (Number(found.contribution_status_id) === STATUS.completed)
        throw new KernelError('E_INVALID_PARAMS', 'Contribution already completed', {
          details: { error_code: 'contribution_completed' },
        });
      if (Number(found.contribution_status_id) !== STATUS.pending)
        throw new KernelError('E_INVALID_PARAMS', 'Only a Pending contribution can be completed');
      const { trxn_id, trxn_date, fee_amount, payment_instrument_id } = params;
      const given = { trxn_id, trxn_date, fee_amount, payment_instrument_id };
      const completed = await completeContribution(entities, found, given, runCompleted);
      return { is_error: 0, version: 3, count: 1, id: Number(completed.id), values: [{ id: Number(completed.id) }] };
    },
  });
}

/**
 * Completes a Pending contribution (completetransaction, and a page's paid submission): Completed, with a payment
 * from its receivable into `to_financial_account_id` (default: the deposit account), then `contribute.completed`.
 */
export async function completeContribution(
  entities: Entities,
  found: Row,
  params: Row,
  runCompleted: (contribution: Row, entities: Entities) => Promise<void>,
): Promise<Row> {
  const changes: Row = { id: found.id, contribution_status_id: STATUS.completed };
  for (const key of ['trxn_id', 'fee_amount', 'payment_instrument_id'])
    if (params[key] !== undefined) changes[key] = params[key];
  changes.receive_date = params.trxn_date ?? new Date();
  const completed = await entities.save('Contribution', changes);
  await recordTrxn(entities, completed, {
    from_financial_account_id: await accountOf(entities, completed.financial_type_id, RELATIONSHIP.receivable),
    to_financial_account_id: params.to_financial_account_id ?? (await depositAccount(entities)),
    is_payment: true,
    status_id: STATUS.completed,
    trxn_date: changes.receive_date,
    ...(params.payment_processor_id !== undefined ? { payment_processor_id: params.payment_processor_id } : {}),
  });
  await runCompleted(completed, entities);
  return completed;
}

export { contributionCompleted };
