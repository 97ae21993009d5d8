import { definePlugin, type Kernel } from '../../kernel';
import type { EntityRegistry } from '../entity-core';
import type { EntityStore } from '../entity-core/store';
import { defineGenericActions } from './generic';
import { createApi4Service } from './service';

export default definePlugin(({ services, actions }) => {
  services.singleton('api4', (c) => createApi4Service(c.kernel as Kernel));
  defineGenericActions(actions, services.resolve<EntityRegistry>('entities'), services.resolve<EntityStore>('entityStore'));
});
