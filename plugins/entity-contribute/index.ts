/** entity-contribute's public surface: its hooks (completion, payment) and exact money arithmetic. */
export { contributionCompleted, contributionPay, type PaymentOutcome, type PaymentRequest } from './hooks';
export { fromCents, minus, sum, times, toCents } from './money';
