/** Setting through APIv3, in the reference's shapes: values keyed by domain id (api/v3/Setting.php). */
import { KernelError, type ActionContext, type ActionRegistrar } from '../../kernel';
import { domainIds, DOMAIN_ID, type SettingsStore } from './store';

type Params = Record<string, unknown>;
/** Params of a Setting call that are not setting names. */
const CONTROL = new Set([
  'version',
  'check_permissions',
  'sequential',
  'debug',
  'domain_id',
  'contact_id',
  'options',
  'return',
  'group',
  'prettyprint',
  'json',
]);
const ADMIN = 'administer CRM';

const envelope = (values: unknown) => ({
  is_error: 0,
  version: 3,
  count: 1,
  id: DOMAIN_ID,
  values: { [DOMAIN_ID]: values },
});

function names(given: unknown): string[] {
  if (Array.isArray(given)) return given.map(String);
  if (typeof given === 'string' && given) return given.split(',').map((name) => name.trim());
  return [];
}

/** `contact_id` for contact settings: the given one, or (with `contact_id: 'user_contact_id'`) the caller's. */
function contactOf(params: Params, ctx: ActionContext): number | null {
  const given = params.contact_id;
  if (given === undefined || given === null || given === '') return null;
  if (given === 'user_contact_id') return ctx.principal.contactId;
  if (!/^\d+$/.test(String(given))) throw new KernelError('E_INVALID_PARAMS', 'contact_id is not a valid integer');
  return Number(given);
}

export function defineSettingActions3(actions: ActionRegistrar, store: SettingsStore): void {
  const define = (action: string, description: string, handler: (params: Params, ctx: ActionContext) => unknown) =>
    actions.define({
      version: 3,
      entity: 'Setting',
      action,
      description,
      params: { type: 'object' },
      permission: ADMIN,
      handler: (params, ctx) => handler(params as Params, ctx),
    });

  define('get', 'Setting values per domain (values keyed by domain id); return names some', async (params, ctx) => {
    domainIds(params.domain_id);
    return envelope(await store.values(ctx.db, names(params.return), contactOf(params, ctx)));
  });
  define(
    'create',
    'Stores settings (name: value params) for the domain, or a contact for contact settings',
    async (params, ctx) => {
      domainIds(params.domain_id);
      const values = Object.fromEntries(
        Object.entries(params).filter(([name]) => !CONTROL.has(name) && !name.startsWith('api.')),
      );
      if (!Object.keys(values).length) throw new KernelError('E_INVALID_PARAMS', 'No setting given');
      return envelope(await store.set(ctx.db, values, contactOf(params, ctx), ctx.principal.contactId));
    },
  );
  define('getvalue', 'One setting value (name required)', async (params, ctx) => {
    const name = String(params.name ?? '');
    if (!name) throw new KernelError('E_INVALID_PARAMS', 'Mandatory key(s) missing from params array: name');
    return (await store.values(ctx.db, [name], contactOf(params, ctx)))[name];
  });
  define('getfields', 'The declared settings: name, title, type, default, is_contact, group_name', () => {
    const fields = Object.fromEntries(
      store.all().map((spec) => [
        spec.name,
        {
          name: spec.name,
          title: spec.title,
          type: spec.type,
          default: spec.default,
          description: spec.description ?? '',
          is_contact: spec.isContact ? 1 : 0,
          group_name: spec.group ?? '',
        },
      ]),
    );
    return { is_error: 0, version: 3, count: Object.keys(fields).length, values: fields };
  });
  define('getdefaults', 'The defaults of the settings (name some, or all)', (params) => {
    const wanted = names(params.name ?? params.return);
    const specs = wanted.length ? wanted.map((name) => store.spec(name)) : store.all();
    return envelope(Object.fromEntries(specs.map((spec) => [spec.name, spec.default])));
  });
  define('revert', 'Sets settings back to their defaults (name required)', async (params, ctx) => {
    const wanted = names(params.name);
    if (!wanted.length) throw new KernelError('E_INVALID_PARAMS', 'Mandatory key(s) missing from params array: name');
    return envelope(await store.revert(ctx.db, wanted, contactOf(params, ctx)));
  });
  define('fill', 'Stores the default of every setting that has no value yet', async (params, ctx) => {
    domainIds(params.domain_id);
    return envelope(await store.fill(ctx.db));
  });
}
