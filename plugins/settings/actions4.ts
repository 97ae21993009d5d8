/** Setting through APIv4: get, set, revert, getFields (the reference's Civi/Api4/Setting actions). */
import type { ActionContext, ActionRegistrar } from '../../kernel';
import { domainIds, type SettingsStore } from './store';

type Params = { select?: string[]; values?: Record<string, unknown>; domainId?: unknown; contactId?: number };
const names = { type: 'array', items: { type: 'string' } };
const scope = { domainId: {}, contactId: { type: 'integer', minimum: 1 }, checkPermissions: { type: 'boolean' } };

export function defineSettingActions4(actions: ActionRegistrar, store: SettingsStore): void {
  const define = (
    action: string,
    description: string,
    properties: Record<string, unknown>,
    handler: (params: Params, ctx: ActionContext) => unknown,
  ) =>
    actions.define({
      version: 4,
      entity: 'Setting',
      action,
      description,
      params: { type: 'object', additionalProperties: false, properties: { ...scope, ...properties } },
      permission: 'administer CRM',
      handler: (params, ctx) => handler(params as Params, ctx),
    });
  const asRecords = (values: Record<string, unknown>) =>
    Object.entries(values).map(([name, value]) => ({ name, value }));

  define(
    'get',
    'Setting values: select names (default all); contactId for contact settings',
    { select: names },
    async (params, ctx) => {
      domainIds(params.domainId);
      return asRecords(await store.values(ctx.db, params.select ?? [], params.contactId ?? null));
    },
  );
  define('set', 'Stores values {name: value}', { values: { type: 'object' } }, async (params, ctx) => {
    domainIds(params.domainId);
    return asRecords(await store.set(ctx.db, params.values ?? {}, params.contactId ?? null, ctx.principal.contactId));
  });
  define('revert', 'Sets the selected settings back to their defaults', { select: names }, async (params, ctx) => {
    domainIds(params.domainId);
    return asRecords(await store.revert(ctx.db, params.select ?? [], params.contactId ?? null));
  });
  define('getFields', 'The declared settings', { select: names, loadOptions: {}, action: {} }, () =>
    store.all().map((spec) => ({
      name: spec.name,
      title: spec.title,
      data_type: spec.type,
      default_value: spec.default,
      description: spec.description ?? null,
      is_contact: Boolean(spec.isContact),
      group: spec.group ?? null,
    })),
  );
}
