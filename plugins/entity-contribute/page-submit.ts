/**
 * ContributionPage.submit (4.5.0): a contribution made through a page — the page's financial type and currency,
 * a line item for the amount, the payment taken through the page's processor (`contribute.pay`, answered by the
 * payment plugin's manager): paid → Completed with the processor's trxn_id; refused → an error and nothing
 * written; pay later → Pending (a receivable). All in one transaction.
 */
import { randomBytes } from 'node:crypto';
import { KernelError, type ActionContext, type ActionRegistrar } from '../../kernel';
import { present, truthy, type Entities, type EntityService } from '../entity-core';
import { completeContribution } from './contribution-actions';
import type { PaymentOutcome, PaymentRequest } from './hooks';
import { STATUS } from './ledger';
import { fromCents, toCents } from './money';
import { pageContact } from './page-contact';

type Row = Record<string, unknown>;
const id = { type: ['integer', 'string'], pattern: '^[0-9]+$' };
const text = { type: 'string', maxLength: 255 };

/** Payment details handed to the processor, never stored. */
const CARD = ['credit_card_number', 'cvv2', 'credit_card_exp_date', 'credit_card_type'];
const BILLING = ['billing_first_name', 'billing_middle_name', 'billing_last_name', 'billing_street_address'];
const BILLING_MORE = ['billing_city', 'billing_postal_code', 'billing_country', 'billing_state_province'];

const PROPERTIES: Record<string, object> = {
  id,
  amount: { type: ['number', 'string'] },
  total_amount: { type: ['number', 'string'] },
  contact_id: id,
  email: text,
  first_name: text,
  last_name: text,
  payment_processor_id: id,
  is_pay_later: { type: ['integer', 'string', 'boolean'] },
  is_test: { type: ['integer', 'string', 'boolean'] },
  invoice_id: text,
  source: text,
  credit_card_exp_date: { type: ['string', 'object'] },
  ...Object.fromEntries(
    [...CARD, ...BILLING, ...BILLING_MORE].filter((k) => k !== 'credit_card_exp_date').map((k) => [k, text]),
  ),
};
/** Keys the API bindings themselves send along. */
const ENVELOPE = ['version', 'sequential', 'check_permissions', 'checkPermissions', 'prettyprint', 'debug', 'options'];

export type PayThrough = (request: PaymentRequest, entities: Entities) => Promise<PaymentOutcome | undefined>;
type RunCompleted = (contribution: Row, entities: Entities) => Promise<void>;

export function defineSubmit(
  actions: ActionRegistrar,
  service: () => EntityService,
  pay: PayThrough,
  runCompleted: RunCompleted,
): void {
  for (const version of [3, 4] as const)
    actions.define({
      version,
      entity: 'ContributionPage',
      action: 'submit',
      description: 'Makes a contribution through a page: the contact, the amount, the payment through its processor',
      params: { type: 'object', required: ['id'], properties: PROPERTIES },
      permission: 'make online contributions',
      writes: true,
      handler: async (raw, ctx) => {
        const row = await submit(raw as Row, ctx, service(), pay, runCompleted);
        return version === 4 ? [row] : { is_error: 0, version: 3, count: 1, id: row.id, values: [row] };
      },
    });
}

async function submit(
  params: Row,
  ctx: ActionContext,
  service: EntityService,
  pay: PayThrough,
  done: RunCompleted,
): Promise<Row> {
  const unknown = Object.keys(params).filter((key) => !(key in PROPERTIES) && !ENVELOPE.includes(key));
  if (unknown.length) throw new KernelError('E_INVALID_PARAMS', `Unknown parameters for submit: ${unknown.join(', ')}`);
  const session = { db: ctx.db, principal: ctx.principal, scope: ctx.scope };
  const entities = service.bind({ ...session, trusted: true });
  const [page] = await service.bind(session).get('ContributionPage', { where: { id: Number(params.id) }, limit: 1 });
  if (!page) throw new KernelError('E_NOT_FOUND', `Contribution page id ${String(params.id)} not found`);
  checkOpen(page);
  const amount = amountOf(params, page);
  const payLater = payLaterOf(params, page);
  const processors = ((page.payment_processor as unknown[] | null) ?? []).map(Number);
  const processorId = present(params.payment_processor_id) ? Number(params.payment_processor_id) : processors[0];
  if (!payLater && !processors.includes(processorId))
    throw new KernelError('E_INVALID_PARAMS', `Payment processor ${String(processorId)} is not one of this page's`);
  const isTest = truthy(params.is_test);
  const contactId = await pageContact(entities, params, ctx.principal);
  const currency = (page.currency as string | null) ?? 'USD';
  const contribution = await entities.save('Contribution', {
    contact_id: contactId,
    financial_type_id: page.financial_type_id,
    contribution_page_id: page.id,
    total_amount: amount,
    currency,
    contribution_status_id: STATUS.pending,
    is_pay_later: payLater,
    is_test: isTest,
    receive_date: new Date(),
    invoice_id: params.invoice_id ?? randomBytes(16).toString('hex'),
    source: params.source ?? `Online Contribution: ${String(page.title)}`,
  });
  let paid = contribution;
  if (!payLater) {
    const details = Object.fromEntries([...CARD, ...BILLING, ...BILLING_MORE].map((key) => [key, params[key]]));
    const outcome = await pay({ processorId, isTest, amount, currency, contribution, details }, entities);
    if (!outcome) throw new KernelError('E_PAYMENT_FAILED', 'No payment plugin is enabled to take the payment');
    if (outcome.status !== 'completed')
      throw new KernelError('E_PAYMENT_FAILED', `Payment failed: ${outcome.message}`, {
        details: { error_code: outcome.error_code },
      });
    paid = await completeContribution(
      entities,
      contribution,
      {
        trxn_id: outcome.trxn_id,
        fee_amount: outcome.fee_amount,
        payment_instrument_id: outcome.payment_instrument_id,
        payment_processor_id: outcome.payment_processor_id,
        to_financial_account_id: outcome.financial_account_id ?? undefined,
      },
      done,
    );
  }
  const keys = ['id', 'contact_id', 'contribution_status_id', 'total_amount', 'fee_amount', 'net_amount', 'trxn_id'];
  return { ...Object.fromEntries(keys.map((key) => [key, paid[key] ?? null])), is_pay_later: payLater };
}

function checkOpen(page: Row): void {
  const now = Date.now();
  const started = !page.start_date || new Date(page.start_date as string).getTime() <= now;
  const ended = !!page.end_date && new Date(page.end_date as string).getTime() < now;
  if (!truthy(page.is_active) || !started || ended)
    throw new KernelError('E_INVALID_PARAMS', `Contribution page ${String(page.id)} is not open for contributions`);
  if (!present(page.financial_type_id))
    throw new KernelError('E_INVALID_PARAMS', `Contribution page ${String(page.id)} has no financial type`);
}

/** The amount, exact: positive, and within the page's minimum and maximum when it sets them. */
function amountOf(params: Row, page: Row): string {
  const given = params.amount ?? params.total_amount;
  if (!present(given))
    throw new KernelError('E_INVALID_PARAMS', 'Mandatory values missing: amount', {
      details: { error_code: 'mandatory_missing', fields: ['amount'] },
    });
  const cents = toCents(given, 'amount');
  if (cents <= 0n) throw new KernelError('E_INVALID_PARAMS', 'amount must be more than 0');
  if (present(page.min_amount) && cents < toCents(page.min_amount))
    throw new KernelError('E_INVALID_PARAMS', `amount is less than this page's minimum ${String(page.min_amount)}`);
  if (present(page.max_amount) && cents > toCents(page.max_amount))
    throw new KernelError('E_INVALID_PARAMS', `amount is more than this page's maximum ${String(page.max_amount)}`);
  return fromCents(cents);
}

/** Pay later when asked (the page must allow it), or on a pay-later page without processors. */
function payLaterOf(params: Row, page: Row): boolean {
  const hasProcessors = ((page.payment_processor as unknown[] | null) ?? []).length > 0;
  if (truthy(params.is_pay_later)) {
    if (!truthy(page.is_pay_later))
      throw new KernelError('E_INVALID_PARAMS', `Contribution page ${String(page.id)} does not take pay later`);
    return true;
  }
  if (hasProcessors) return false;
  if (truthy(page.is_pay_later)) return true;
  throw new KernelError('E_INVALID_PARAMS', `Contribution page ${String(page.id)} has no payment processor`);
}
