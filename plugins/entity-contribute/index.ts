/** entity-contribute's public surface: the completion hook and exact money arithmetic. */
export { contributionCompleted } from './hooks';
export { fromCents, minus, sum, times, toCents } from './money';
