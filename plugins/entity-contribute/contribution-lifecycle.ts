/**
 * Contribution behaviour: the net amount, the default line item (4.3.0; `skipLineItems=1` leaves it out, given
 * `line_items` replace it), the transactions of its status and soft credits, in the statement that creates it.
 */
import { KernelError } from '../../kernel';
import { linkTo, singleDefault, present, truthy, type EntityRegistry, type SaveContext } from '../entity-core';
import { checkFields, defaultLineItem, givenLineItems, statusRecords } from './ledger';
import { minus, toCents } from './money';

type Row = Record<string, unknown>;

async function beforeSave(values: Row, sc: SaveContext, registry: EntityRegistry): Promise<Row> {
  const out: Row = { ...values };
  const total = out.total_amount ?? sc.existing?.total_amount;
  const fee = out.fee_amount ?? sc.existing?.fee_amount;
  if (present(total)) toCents(total, 'total_amount');
  if (present(fee)) toCents(fee, 'fee_amount');
  // The net amount is what is left of the total after the fee, unless given.
  if (!present(values.net_amount) && present(total) && (present(values.total_amount) || present(values.fee_amount)))
    out.net_amount = minus(total, present(fee) ? fee : 0);
  if (!sc.existing) sc.createWith?.(await ledger(out, sc, registry));
  return out;
}

/**
 * What a new contribution brings with it, written in the statement that creates it (`sc.createWith`, one round
 * trip): its line items, the transaction of its status and the transaction's share, and (4.4.0) soft credits.
 */
async function ledger(values: Row, sc: SaveContext, registry: EntityRegistry) {
  const contribution = { ...values, id: linkTo(0) };
  const items = present(sc.params.line_items)
    ? givenLineItems(registry, contribution, await withPriceOptions(sc, registry, sc.params.line_items))
    : truthy(sc.params.skipLineItems)
      ? []
      : [defaultLineItem(contribution)];
  const status = await statusRecords(sc.entities, contribution, items.length + 1, registry);
  return [...items, ...status, ...softCredits(registry, sc.params.soft_credit, contribution)];
}

/** `soft_credit`: [{contact_id, amount, soft_credit_type_id}] (4.4.0), each amount the total unless given. */
function softCredits(registry: EntityRegistry, credits: unknown, contribution: Row) {
  if (!present(credits)) return [];
  if (typeof credits !== 'object' || credits === null)
    throw new KernelError(
      'E_INVALID_PARAMS',
      'soft_credit must be a list of {contact_id, amount, soft_credit_type_id}',
    );
  return (Object.values(credits) as Row[]).map((credit) => {
    if (!credit || typeof credit !== 'object' || !present(credit.contact_id))
      throw new KernelError('E_INVALID_PARAMS', 'soft_credit: each credit needs a contact_id');
    checkFields(registry, 'ContributionSoft', credit, 'soft_credit');
    const values = { amount: contribution.total_amount, currency: contribution.currency, ...credit };
    return { entity: 'ContributionSoft', values: { ...values, contribution_id: contribution.id } };
  });
}

export function extendContributions(entities: EntityRegistry): void {
  entities.extend('Contribution', {
    params: ['line_items', 'skipLineItems', 'soft_credit'],
    beforeSave: (values, sc) => beforeSave(values, sc, entities),
  });
  entities.extend('LineItem', { linkSafe: true, beforeSave: (values, sc) => termsFromPrice(values, sc, entities) });
  // The deposit account is remembered (ledger.ts): an account write makes every instance forget it.
  const forget = async (_row: Row, sc: SaveContext) => entities.optionsChanged(sc.db);
  entities.extend('FinancialAccount', { afterSave: forget, afterDelete: forget });
  // One default account per account type (the reference's FinancialAccount::add).
  entities.extend('FinancialAccount', singleDefault('FinancialAccount', 'financial_account_type_id'));
}

/**
 * A new line for a price option that sells a membership (`price_field_value_id`) and names no terms takes the
 * option's `membership_num_terms` (1 when the option names a membership type but no terms), as the reference's
 * order does: a renewal paid by the line extends by that many terms. Only reads, so the line may share its
 * contribution's statement (`linkSafe`).
 */
async function termsFromPrice(values: Row, sc: SaveContext, entities: EntityRegistry): Promise<Row> {
  if (sc.existing || values.price_field_value_id == null || values.membership_num_terms != null) return values;
  if (!entities.find('PriceFieldValue')) return values;
  const [option] = await sc.entities.get('PriceFieldValue', {
    where: [{ path: 'id', op: '=', value: values.price_field_value_id }],
    select: ['membership_type_id', 'membership_num_terms'],
  });
  const terms = option?.membership_num_terms ?? (option?.membership_type_id != null ? 1 : null);
  return terms == null ? values : { ...values, membership_num_terms: terms };
}

/**
 * Given lines naming a price option (`price_field_value_id`) take what they leave out from it, as the reference's
 * order does: its price field, label, amount (the unit price) and financial type; an id that is no price option is
 * refused. (Its membership terms come from the LineItem tap above, which a line written alone goes through too.)
 */
async function withPriceOptions(sc: SaveContext, registry: EntityRegistry, items: unknown): Promise<unknown> {
  if (!Array.isArray(items) || !registry.find('PriceFieldValue')) return items;
  const named = items.filter((item: Row | null) => present(item?.price_field_value_id)) as Row[];
  if (!named.length) return items;
  // An option id is a positive integer: anything else is refused here rather than sent to the database.
  const notAnId = named.find((item) => !/^[1-9][0-9]{0,14}$/.test(String(item.price_field_value_id)));
  if (notAnId) throw notAnOption(notAnId);
  const ids = named.map((item) => Number(item.price_field_value_id));
  const options = await sc.entities.get('PriceFieldValue', {
    where: [{ path: 'id', op: 'IN', value: ids }],
    select: ['id', 'price_field_id', 'label', 'amount', 'financial_type_id'],
  });
  const byId = new Map(options.map((option) => [String(option.id), option]));
  return items.map((item: Row) => {
    if (!present(item?.price_field_value_id)) return item;
    const option = byId.get(String(item.price_field_value_id));
    if (!option) throw notAnOption(item);
    const { price_field_id, label, amount, financial_type_id } = option;
    const defaults: Row = { price_field_id, label, unit_price: amount };
    if (present(financial_type_id)) defaults.financial_type_id = financial_type_id;
    return { ...defaults, ...item };
  });
}

/** The refusal of a line whose `price_field_value_id` names no price option (the caller's text quoted, bounded). */
const notAnOption = (item: Row) =>
  new KernelError(
    'E_INVALID_PARAMS',
    `line_items: ${String(item.price_field_value_id).slice(0, 64)} is not a price option`,
    {
      details: { error_field: 'line_items' },
    },
  );
