/**
 * PaymentProcessor behaviour: on create the type's class name, billing mode, recurring support, payment type and
 * method are copied when omitted, the titles default to each other and then to the name; the processor's asset
 * account (`financial_account_id`, default: the default asset account) is linked by EntityFinancialAccount.
 */
import { KernelError } from '../../kernel';
import { present, type EntityRegistry, type SaveContext } from '../entity-core';
import { ASSET_RELATIONSHIP, PROCESSOR_TABLE } from './manager';

type Row = Record<string, unknown>;
const FROM_TYPE = ['class_name', 'billing_mode', 'is_recur', 'payment_type', 'payment_instrument_id'];

async function beforeSave(values: Row, sc: SaveContext): Promise<Row> {
  const out: Row = { ...values };
  if (!sc.existing) {
    const [type] = await sc.entities.get('PaymentProcessorType', {
      where: { id: Number(values.payment_processor_type_id) },
      select: FROM_TYPE,
      limit: 1,
    });
    if (!type)
      throw new KernelError(
        'E_INVALID_PARAMS',
        `Payment processor type ${String(values.payment_processor_type_id)} not found`,
      );
    for (const key of FROM_TYPE) if (!present(sc.params[key]) && present(type[key])) out[key] = type[key];
    out.title = present(values.title)
      ? values.title
      : present(values.frontend_title)
        ? values.frontend_title
        : values.name;
    out.frontend_title = present(values.frontend_title) ? values.frontend_title : out.title;
  }
  return out;
}

async function afterSave(row: Row, sc: SaveContext): Promise<void> {
  const given = sc.params.financial_account_id;
  if (sc.existing && !present(given)) return;
  let accountId = present(given) ? Number(given) : null;
  if (present(given) && !Number.isInteger(accountId))
    throw new KernelError('E_INVALID_PARAMS', `financial_account_id is not an id: ${String(given)}`);
  if (accountId === null) {
    const [account] = await sc.entities.get('FinancialAccount', {
      where: { financial_account_type_id: 1, is_active: true },
      select: ['id'],
      orderBy: [
        { path: 'is_default', dir: 'DESC' },
        { path: 'id', dir: 'ASC' },
      ],
      limit: 1,
    });
    if (!account) return;
    accountId = Number(account.id);
  }
  const link = { entity_table: PROCESSOR_TABLE, entity_id: Number(row.id), account_relationship: ASSET_RELATIONSHIP };
  const [existing] = await sc.entities.get('EntityFinancialAccount', { where: link, select: ['id'], limit: 1 });
  await sc.entities.save('EntityFinancialAccount', {
    ...(existing ? { id: existing.id } : link),
    financial_account_id: accountId,
  });
}

export function extendProcessors(entities: EntityRegistry): void {
  entities.extend('PaymentProcessor', { params: ['financial_account_id'], beforeSave, afterSave });
}
