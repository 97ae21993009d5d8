/**
 * Extension.get (the service's plugins, as the reference lists its extensions: 4.7.13/4.7.20, get and
 * getsingle return all the information by default) and Domain.get (one domain: this service).
 */
import { KernelError, type ActionRegistrar, type PluginManifest } from '../../kernel';
import pkg from '../../package.json';

type Row = Record<string, unknown>;
type Plugins = ReadonlyArray<{ readonly name: string; readonly manifest: PluginManifest }>;

/** The one domain this service is: the reference's default domain, with the service's version. */
export const DOMAIN = { id: 1, name: 'Default Domain Name', description: null, version: pkg.version, contact_id: null };

function extensions(plugins: Plugins): Row[] {
  return plugins.map((plugin, index) => ({
    id: index + 1,
    key: plugin.name,
    type: 'module',
    name: plugin.name,
    label: plugin.name,
    file: plugin.name,
    status: 'installed',
    description: plugin.manifest.description,
    version: plugin.manifest.version,
    kind: plugin.manifest.kind,
  }));
}

/** Keeps the rows whose fields equal every given filter (APIv3 `key`, `status`…; APIv4 `where` of `=`). */
function filtered(rows: Row[], filters: Row): Row[] {
  return rows.filter((row) => Object.entries(filters).every(([name, value]) => String(row[name]) === String(value)));
}

/** APIv3's envelope: values keyed by id, every leaf a string (null as ""), `id` when there is one record. */
const v3 = (rows: Row[]) => ({
  is_error: 0,
  version: 3,
  count: rows.length,
  ...(rows.length === 1 ? { id: rows[0].id } : {}),
  values: Object.fromEntries(
    rows.map((row) => [
      String(row.id),
      Object.fromEntries(Object.entries(row).map(([name, value]) => [name, value === null ? '' : String(value)])),
    ]),
  ),
});

const V3_FILTERS = ['id', 'key', 'name', 'status', 'type'];

export function defineSiteActions(actions: ActionRegistrar, plugins: Plugins): void {
  actions.define({
    version: 3,
    entity: 'Extension',
    action: 'get',
    description: "The service's plugins as the reference's extensions (key, status, version, description…)",
    params: { type: 'object' },
    permission: 'administer CRM',
    handler: (params) => {
      const given = params as Row;
      const filters = Object.fromEntries(
        V3_FILTERS.filter((name) => given[name] !== undefined).map((name) => [name, given[name]]),
      );
      return v3(filtered(extensions(plugins), filters));
    },
  });
  actions.define({
    version: 3,
    entity: 'Extension',
    action: 'getsingle',
    description: 'One plugin as an extension, every field (4.7.20)',
    params: { type: 'object' },
    permission: 'administer CRM',
    handler: (params) => {
      const given = params as Row;
      const filters = Object.fromEntries(
        V3_FILTERS.filter((name) => given[name] !== undefined).map((name) => [name, given[name]]),
      );
      const rows = filtered(extensions(plugins), filters);
      if (rows.length !== 1)
        throw new KernelError('E_INVALID_PARAMS', `Expected one Extension but found ${rows.length}`, {
          details: { error_code: 'not-found' },
        });
      return Object.fromEntries(
        Object.entries(rows[0]).map(([name, value]) => [name, value === null ? '' : String(value)]),
      );
    },
  });
  actions.define({
    version: 4,
    entity: 'Extension',
    action: 'get',
    description: "The service's plugins as the reference's extensions",
    params: { type: 'object', properties: { where: { type: 'array' }, select: { type: 'array' } } },
    permission: 'administer CRM',
    handler: (params) => {
      const where = ((params as { where?: unknown[][] }).where ?? []).filter((clause) => clause[1] === '=');
      return filtered(extensions(plugins), Object.fromEntries(where.map((clause) => [String(clause[0]), clause[2]])));
    },
  });
  actions.define({
    version: 3,
    entity: 'Domain',
    action: 'get',
    description: 'The domain this service is (one: id 1); current_domain selects it',
    params: { type: 'object' },
    permission: 'access CRM',
    handler: () => v3([{ ...DOMAIN }]),
  });
  actions.define({
    version: 4,
    entity: 'Domain',
    action: 'get',
    description: 'The domain this service is (one: id 1)',
    params: { type: 'object', properties: { where: { type: 'array' }, select: { type: 'array' } } },
    permission: 'access CRM',
    handler: () => [{ ...DOMAIN }],
  });
}
