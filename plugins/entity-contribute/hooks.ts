/** Hooks entity-contribute owns. */
import { defineHook } from '../../kernel';
import type { Entities } from '../entity-core';

/**
 * After a Pending contribution became Completed (`Contribution.completetransaction`), in its transaction: the
 * point where the records it paid for (memberships, participants, once they exist) are brought up to date.
 */
export const contributionCompleted = defineHook.series<[contribution: Record<string, unknown>, entities: Entities]>(
  'contribute.completed',
  'After a Pending contribution became Completed, in its transaction: update what it paid for',
);

/** What `ContributionPage.submit` asks a payment plugin to take. */
export interface PaymentRequest {
  /** The processor the page (or the caller, among the page's) chose: a live processor's id. */
  processorId: number;
  /** Test mode: pay through the processor's test twin (same name, `is_test`). */
  isTest: boolean;
  /** Exact decimal string, e.g. "10.00". */
  amount: string;
  currency: string;
  /** The Pending contribution being paid (id, contact_id, invoice_id…). */
  contribution: Record<string, unknown>;
  /** The submitter's payment details (credit_card_number, cvv2, billing names…): never stored, never logged. */
  details: Record<string, unknown>;
}

/** A payment plugin's answer: paid (with the processor's transaction id) or refused (with why). */
export type PaymentOutcome =
  | {
      status: 'completed';
      trxn_id: string;
      fee_amount?: string;
      /** The processor that took the payment (the test twin in test mode). */
      payment_processor_id: number;
      payment_instrument_id?: number;
      /** The asset account the money went to, when the processor has one. */
      financial_account_id?: number | null;
    }
  | { status: 'failed'; error_code: string; message: string };

/**
 * Takes a payment for a contribution made through a page (bail: the plugin that runs processors answers;
 * the payment plugin taps it). No answer means no payment plugin is enabled.
 */
export const contributionPay = defineHook.bail<PaymentOutcome, [request: PaymentRequest, entities: Entities]>(
  'contribute.pay',
  'Take the payment for a contribution made through a page, through the chosen processor',
);
