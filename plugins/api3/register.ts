import { definePlugin, type Kernel } from '../../kernel';
import type { EntityRegistry } from '../entity-core';
import type { EntityStore } from '../entity-core/store';
import { defineGenericActions } from './generic';
import { createApi3Service } from './service';

export default definePlugin(({ services, actions }) => {
  services.singleton('api3', (c) => createApi3Service(c.kernel as Kernel));
  defineGenericActions(actions, services.resolve<EntityRegistry>('entities'), services.resolve<EntityStore>('entityStore'));
});
