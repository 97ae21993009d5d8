/** payment: processor types and processors, the central manager, the Dummy processor and page payments. */
import { definePlugin } from '../../kernel';
import type { EntityRegistry } from '../entity-core';
import { contributionPay } from '../entity-contribute';
import { dummyProcessorClass } from './dummy';
import { paymentProcessorClasses } from './hooks';
import { PaymentProcessorManager } from './manager';
import { extendProcessors } from './processor-lifecycle';

export default definePlugin(({ services, hooks, runHook, onReady }) => {
  extendProcessors(services.resolve<EntityRegistry>('entities'));
  const manager = new PaymentProcessorManager(() => runHook(paymentProcessorClasses));
  services.value('paymentProcessors', manager);
  hooks.tap(paymentProcessorClasses, () => dummyProcessorClass);
  // Collect the implementations once at start: a class name contributed twice fails the boot.
  onReady(async () => void (await manager.registry()));
  hooks.tap(contributionPay, (request, entities) => manager.pay(entities, request));
});
