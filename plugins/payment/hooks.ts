/** Hooks the payment plugin owns: the processor class registry. */
import { defineHook } from '../../kernel';

type Row = Record<string, unknown>;

/** What a processor implementation is asked to pay. */
export interface PaymentParams {
  /** Exact decimal string, e.g. "10.00". */
  amount: string;
  currency: string;
  contribution_id?: number;
  contact_id?: number;
  invoice_id?: string | null;
  /** Card and billing details as the submitter gave them (credit_card_number, cvv2…): never store or log them. */
  [detail: string]: unknown;
}

/** A processor's answer. */
export type PaymentResult =
  | { status: 'completed'; trxn_id: string; fee_amount?: string }
  | { status: 'failed'; error_code: string; message: string };

/** One configured processor, ready to pay (built by the manager from its row). */
export interface ProcessorInstance {
  doPayment(params: PaymentParams): Promise<PaymentResult> | PaymentResult;
}

/**
 * An implementation of a processor type: `className` is what PaymentProcessorType.class_name names
 * (`Payment_Dummy`); `create` builds it from the processor row (credentials decrypted, `is_test` telling the mode).
 */
export interface ProcessorClass {
  className: string;
  description?: string;
  create(processor: Row): ProcessorInstance;
}

/** Contribute processor implementations by class name (collect; a name contributed twice fails). */
export const paymentProcessorClasses = defineHook.collect<ProcessorClass, []>(
  'payment.processorClasses',
  'Contribute payment processor implementations, keyed by the class_name a processor type names',
);
