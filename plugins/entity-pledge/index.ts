/** entity-pledge's public surface: the installment schedule arithmetic. */
export { installmentAmount, installmentAmounts, installmentDates, pledgeStatus } from './schedule';
