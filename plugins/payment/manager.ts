/**
 * The central processor manager (4.6): builds a processor from its row and its type's `class_name`, through
 * the implementations plugins contribute on `payment.processorClasses`, and takes payments with it.
 */
import { KernelError } from '../../kernel';
import type { Entities } from '../entity-core';
import type { PaymentOutcome, PaymentRequest } from '../entity-contribute';
import PaymentProcessorDef from './entities/PaymentProcessor';
import type { ProcessorClass, ProcessorInstance } from './hooks';

type Row = Record<string, unknown>;

/** EntityFinancialAccount.account_relationship "Asset Account is": where a processor's payments go. */
export const ASSET_RELATIONSHIP = 6;
export const PROCESSOR_TABLE = 'civicrm_payment_processor';

const ALL_FIELDS = PaymentProcessorDef.fields.map((field) => field.name);
const yes = (value: unknown) => value === true || value === 1 || value === '1';
const invalid = (message: string) => new KernelError('E_INVALID_PARAMS', message);

export class PaymentProcessorManager {
  private classes?: Promise<Map<string, ProcessorClass>>;

  constructor(private readonly collect: () => Promise<ProcessorClass[]>) {}

  /** The registered implementations by class name (collected once; a name given twice is refused). */
  registry(): Promise<Map<string, ProcessorClass>> {
    this.classes ??= this.collect().then((list) => {
      const byName = new Map<string, ProcessorClass>();
      for (const processorClass of list) {
        if (byName.has(processorClass.className))
          throw new KernelError('E_HOOK_DUPLICATE', `Processor class ${processorClass.className} is contributed twice`);
        byName.set(processorClass.className, processorClass);
      }
      return byName;
    });
    return this.classes;
  }

  /** A processor row with its credentials (trusted read: the secrets are decrypted for the implementation). */
  async processor(entities: Entities, id: number, isTest = false): Promise<Row> {
    const [found] = await entities.get('PaymentProcessor', { where: { id }, select: ALL_FIELDS, limit: 1 });
    if (!found) throw invalid(`Payment processor id ${id} not found`);
    let chosen = found;
    if (isTest && !yes(found.is_test)) {
      // Test and live processors come in pairs of the same name.
      const [twin] = await entities.get('PaymentProcessor', {
        where: { name: found.name, is_test: true, domain_id: found.domain_id },
        select: ALL_FIELDS,
        limit: 1,
      });
      if (!twin) throw invalid(`Payment processor ${String(found.name)} has no test processor`);
      chosen = twin;
    }
    if (!yes(chosen.is_active)) throw invalid(`Payment processor ${String(chosen.name)} is not active`);
    return chosen;
  }

  /** Builds the implementation the processor's class name (or its type's) names. */
  async instance(entities: Entities, processor: Row): Promise<ProcessorInstance> {
    let className = processor.class_name as string | null;
    if (!className) {
      const [type] = await entities.get('PaymentProcessorType', {
        where: { id: Number(processor.payment_processor_type_id) },
        select: ['class_name'],
        limit: 1,
      });
      className = (type?.class_name as string | undefined) ?? null;
    }
    const implementation = className ? (await this.registry()).get(className) : undefined;
    if (!implementation)
      throw invalid(
        `No payment processor implementation ${String(className)} is installed (processor ${String(processor.name)})`,
      );
    return implementation.create(processor);
  }

  /** Takes a page's payment: the processor (its test twin in test mode) pays; the outcome says how it went. */
  async pay(entities: Entities, request: PaymentRequest): Promise<PaymentOutcome> {
    const processor = await this.processor(entities, request.processorId, request.isTest);
    const instance = await this.instance(entities, processor);
    const contribution = request.contribution;
    const result = await instance.doPayment({
      ...request.details,
      amount: request.amount,
      currency: request.currency,
      contribution_id: Number(contribution.id),
      contact_id: Number(contribution.contact_id),
      invoice_id: (contribution.invoice_id as string | null) ?? null,
    });
    if (result.status !== 'completed') return result;
    const [link] = await entities.get('EntityFinancialAccount', {
      where: {
        entity_table: PROCESSOR_TABLE,
        entity_id: Number(processor.id),
        account_relationship: ASSET_RELATIONSHIP,
      },
      select: ['financial_account_id'],
      limit: 1,
    });
    return {
      ...result,
      payment_processor_id: Number(processor.id),
      payment_instrument_id:
        processor.payment_instrument_id == null ? undefined : Number(processor.payment_instrument_id),
      financial_account_id: link ? Number(link.financial_account_id) : null,
    };
  }
}
