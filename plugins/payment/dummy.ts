/**
 * The Dummy processor (class `Payment_Dummy`): pays without a network. It succeeds with a new transaction id
 * (`test_…` for a test processor, `live_…` otherwise) and a fee of 1.50, as the reference's does; it declines
 * the card number {@link DECLINED_CARD} so a test can see a failure.
 */
import { randomBytes } from 'node:crypto';
import type { PaymentParams, PaymentResult, ProcessorClass } from './hooks';

/** The card number the Dummy processor declines. */
export const DECLINED_CARD = '4000000000000002';

export const dummyProcessorClass: ProcessorClass = {
  className: 'Payment_Dummy',
  description: 'Pays without a network (for tests and demonstrations); declines card 4000000000000002',
  create(processor) {
    const mode = processor.is_test === true || processor.is_test === 1 ? 'test' : 'live';
    return {
      doPayment(params: PaymentParams): PaymentResult {
        const card = String(params.credit_card_number ?? '').replace(/[\s-]/g, '');
        if (card === DECLINED_CARD)
          return { status: 'failed', error_code: 'card_declined', message: 'The card was declined' };
        return { status: 'completed', trxn_id: `${mode}_${randomBytes(8).toString('hex')}`, fee_amount: '1.50' };
      },
    };
  },
};
