import { definePlugin, type Kernel } from '../../kernel';
import { defineGenericActions } from './generic';
import { createApi3Service } from './service';

export default definePlugin(({ services, actions }) => {
  services.singleton('api3', (c) => createApi3Service(c.kernel as Kernel));
  defineGenericActions(actions);
});
