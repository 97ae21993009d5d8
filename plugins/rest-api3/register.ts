import { definePlugin, KernelError, type HookBus } from '../../kernel';
import { formatRenderers, httpRoutes, type Renderer } from '../../host';
import type { RestApi3Binding, RestApi3Options } from './binding';
import { makeRoutes } from './routes';

export default definePlugin<RestApi3Options>(({ config, hooks, services, log, onReady }) => {
  const renderers = new Map<string, Renderer>();
  const binding: RestApi3Binding = { options: config, renderers, log };
  services.value('restApi3', binding);

  // Output formats are collected once, into a Map; two plugins claiming one name stop the boot.
  onReady(async () => {
    const owners = new Map<string, string>();
    for (const { plugin, item } of await services.resolve<HookBus>('hooks').collectAttributed(formatRenderers)) {
      const other = owners.get(item.name);
      if (other)
        throw new KernelError(
          'E_HOOK_DUPLICATE',
          `Output format '${item.name}' is contributed by both ${other} and ${plugin}`,
          { plugin },
        );
      owners.set(item.name, plugin);
      renderers.set(item.name, item);
    }
  });

  const prefix = config.externPrefix.replace(/\/+$/, '');
  hooks.tap(httpRoutes, () =>
    makeRoutes(binding, {
      ajax: ['/crm/ajax/rest'],
      extern: [`${prefix}/extern/rest.php`],
      wp: ['/wp-json/crm/v3/rest'],
    }),
  );
});
