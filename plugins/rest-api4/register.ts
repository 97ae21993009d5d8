import { definePlugin } from '../../kernel';
import { httpRoutes } from '../../host';
import { makeApi4Routes, type RestApi4Binding, type RestApi4Options } from './routes';

export const PREFIX = '/crm/ajax/api4';

export default definePlugin<RestApi4Options>(({ config, hooks, services, log }) => {
  const binding: RestApi4Binding = { options: config, log };
  services.value('restApi4', binding);
  hooks.tap(httpRoutes, () => makeApi4Routes(binding, [PREFIX]));
});
