import { cliCommands, definePlugin, type Kernel } from '../../kernel';
import { apiCliCommand } from '../entity-core/cli';
import type { EntityService } from '../entity-core';
import { defineGenericActions } from './generic';
import { createApi3Service } from './service';

export default definePlugin(({ services, actions, hooks }) => {
  hooks.tap(cliCommands, () => apiCliCommand(3, 'api3'));
  services.singleton('api3', (c) => createApi3Service(c.kernel as Kernel));
  defineGenericActions(actions, services.resolve<EntityService>('entityService'));
});
