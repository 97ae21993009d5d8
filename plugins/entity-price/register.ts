/** entity-price: price sets, their fields and options; a reserved set (the seeded default) cannot be deleted. */
import { definePlugin, KernelError } from '../../kernel';
import type { EntityRegistry } from '../entity-core';

export default definePlugin(({ services }) => {
  const entities = services.resolve<EntityRegistry>('entities');
  entities.extend('PriceSet', {
    beforeDelete(row) {
      if (row.is_reserved === true || row.is_reserved === 1)
        throw new KernelError('E_INVALID_PARAMS', `Price set ${String(row.name)} is reserved and cannot be deleted`);
    },
  });
});
