/** payment's public surface: the processor class registry hook, its types, and the manager. */
export {
  paymentProcessorClasses,
  type PaymentParams,
  type PaymentResult,
  type ProcessorClass,
  type ProcessorInstance,
} from './hooks';
export { PaymentProcessorManager } from './manager';
export { DECLINED_CARD } from './dummy';
