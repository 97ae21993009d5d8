/**
 * The financial records of a contribution: its default line item (4.3.0, unless `skipLineItems`), and the
 * transactions its status calls for — Completed: a payment into the asset account; Pending: a receivable.
 */
import { KernelError } from '../../kernel';
import { linkTo, type Entities, type EntityRegistry } from '../entity-core';
import { fromCents, minus, times, toCents } from './money';

type Row = Record<string, unknown>;

export const STATUS = { completed: 1, pending: 2 } as const;
/** EntityFinancialAccount.account_relationship values (option group account_relationship). */
export const RELATIONSHIP = { income: 1, receivable: 3, expense: 5, asset: 6 } as const;

/** The account a financial type uses for a relationship (null when it has none). */
export async function accountOf(
  entities: Entities,
  financialTypeId: unknown,
  relationship: number,
): Promise<number | null> {
  const [link] = await entities.get('EntityFinancialAccount', {
    where: {
      entity_table: 'civicrm_financial_type',
      entity_id: Number(financialTypeId),
      account_relationship: relationship,
    },
    select: ['financial_account_id'],
    limit: 1,
  });
  return link ? Number(link.financial_account_id) : null;
}

/** The deposit account per registry, with the registry's options version it was read at. */
const deposits = new WeakMap<EntityRegistry, { version: number; id: number | null }>();

/**
 * Where payments are deposited: the default asset account. Remembered until option lists or accounts change
 * (on any instance: FinancialAccount writes announce an options change, see register.ts), so a contribution
 * costs no look-up for it.
 */
export async function depositAccount(entities: Entities, registry?: EntityRegistry): Promise<number | null> {
  const known = registry && deposits.get(registry);
  if (known && known.version === registry.optionsVersion) return known.id;
  const version = registry?.optionsVersion ?? 0;
  const id = await readDepositAccount(entities);
  if (registry) deposits.set(registry, { version, id });
  return id;
}

async function readDepositAccount(entities: Entities): Promise<number | null> {
  const [account] = await entities.get('FinancialAccount', {
    where: { financial_account_type_id: 1, is_active: true },
    select: ['id', 'is_default'],
    orderBy: [
      { path: 'is_default', dir: 'DESC' },
      { path: 'id', dir: 'ASC' },
    ],
    limit: 1,
  });
  return account ? Number(account.id) : null;
}

/** A record of a linked create (entity-core's `createLinked`). */
type Linked = { entity: string; values: Row };

/** The default line item: the whole amount, once, of the contribution's financial type. */
export function defaultLineItem(contribution: Row): Linked {
  return {
    entity: 'LineItem',
    values: {
      entity_table: 'civicrm_contribution',
      entity_id: contribution.id,
      contribution_id: contribution.id,
      label: 'Contribution Amount',
      qty: '1',
      unit_price: contribution.total_amount,
      line_total: contribution.total_amount,
      financial_type_id: contribution.financial_type_id,
      non_deductible_amount: contribution.non_deductible_amount ?? '0',
      tax_amount: contribution.tax_amount ?? '0',
    },
  };
}

/**
 * A record the caller gives inside a contribution (a line item, a soft credit): each key is a field of `entity`
 * (stored) or the call is refused — never dropped in silence.
 */
export function checkFields(registry: EntityRegistry, entity: string, item: Row, param: string): void {
  const fields = registry.get(entity).lookup;
  const unknown = Object.keys(item).filter((key) => !fields.get(key));
  if (unknown.length)
    throw new KernelError('E_INVALID_PARAMS', `${param}: not a field of ${entity}: ${unknown.join(', ')}`, {
      details: { error_field: param },
    });
}

/**
 * Line items given by the caller (`line_items`: [{qty, unit_price, label, financial_type_id, entity_table, entity_id,
 * membership_num_terms…}]); they must add up.
 */
export function givenLineItems(registry: EntityRegistry, contribution: Row, items: unknown): Linked[] {
  if (!Array.isArray(items) || !items.length)
    throw new KernelError('E_INVALID_PARAMS', 'line_items must be a non-empty list of {qty, unit_price}');
  let total = 0n;
  const records: Linked[] = [];
  for (const item of items as Row[]) {
    if (!item || typeof item !== 'object')
      throw new KernelError('E_INVALID_PARAMS', 'line_items: each item is an object');
    checkFields(registry, 'LineItem', item, 'line_items');
    // What a line pays for is the pair: an entity_id alone would be overwritten with the contribution's, in silence.
    if ((item.entity_table === undefined) !== (item.entity_id === undefined))
      throw new KernelError('E_INVALID_PARAMS', 'line_items: entity_table and entity_id go together', {
        details: { error_field: 'line_items' },
      });
    const lineTotal = times(item.qty ?? 1, item.unit_price);
    total += toCents(lineTotal);
    records.push({
      entity: 'LineItem',
      values: {
        label: 'Contribution Amount',
        financial_type_id: contribution.financial_type_id,
        ...item,
        qty: item.qty ?? 1,
        line_total: lineTotal,
        // A line may pay for a membership or a participant (`entity_table`, `entity_id`); else for the contribution.
        entity_table: item.entity_table ?? 'civicrm_contribution',
        entity_id: item.entity_table === undefined ? contribution.id : item.entity_id,
        contribution_id: contribution.id,
      },
    });
  }
  if (total !== toCents(contribution.total_amount))
    throw new KernelError(
      'E_INVALID_PARAMS',
      `line_items add up to ${fromCents(total)}, not the total_amount ${String(contribution.total_amount)}`,
    );
  return records;
}

/**
 * One transaction and its share for the contribution, as the two records of a linked create: the share's
 * `financial_trxn_id` is the transaction's id, `first` the transaction's position in the whole call.
 */
export function trxnRecords(contribution: Row, values: Row, first: number): Linked[] {
  const fee = contribution.fee_amount ?? '0';
  return [
    {
      entity: 'FinancialTrxn',
      values: {
        total_amount: contribution.total_amount,
        fee_amount: fee,
        net_amount: minus(contribution.total_amount, fee),
        currency: contribution.currency ?? 'USD',
        trxn_id: contribution.trxn_id,
        payment_instrument_id: contribution.payment_instrument_id,
        check_number: contribution.check_number,
        trxn_date: contribution.receive_date ?? new Date(),
        ...values,
      },
    },
    {
      entity: 'EntityFinancialTrxn',
      values: {
        entity_table: 'civicrm_contribution',
        entity_id: contribution.id,
        financial_trxn_id: linkTo(first),
        amount: contribution.total_amount,
      },
    },
  ];
}

/** One transaction and its share for the contribution, in one statement. */
export async function recordTrxn(entities: Entities, contribution: Row, values: Row): Promise<void> {
  await entities.createLinked(trxnRecords(contribution, values, 0));
}

/**
 * The transactions a new contribution's status calls for (none for Cancelled, Failed…), as records of a linked
 * create where the transaction is record `first`.
 */
export async function statusRecords(
  entities: Entities,
  contribution: Row,
  first: number,
  registry?: EntityRegistry,
): Promise<Linked[]> {
  const status = Number(contribution.contribution_status_id);
  if (status !== STATUS.completed && status !== STATUS.pending) return [];
  // Completed: a payment into the deposit account; Pending: a receivable of the financial type.
  const paid = status === STATUS.completed;
  const account = paid
    ? await depositAccount(entities, registry)
    : await accountOf(entities, contribution.financial_type_id, RELATIONSHIP.receivable);
  return trxnRecords(contribution, { to_financial_account_id: account, is_payment: paid, status_id: status }, first);
}
