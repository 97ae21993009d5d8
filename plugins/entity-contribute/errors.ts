/** entity-contribute's own error code: a payment refused through a contribution page. */
import { registerErrorCodes } from '../../kernel';

registerErrorCodes('entity-contribute', {
  E_PAYMENT_FAILED: {
    status: 402,
    expose: true,
    meaning: 'The payment processor refused the payment, or none could take it (`error_code` says why)',
  },
});
