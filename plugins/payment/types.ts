/** The payment plugin's container service, by declaration merging. */
import type { PaymentProcessorManager } from './manager';

declare module '../../kernel/types' {
  interface Cradle {
    /** The central processor manager: builds processors from their type's class_name and pays with them. */
    paymentProcessors: PaymentProcessorManager;
  }
}
