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

/** APIv3's filters of Extension.get/getsingle: the params naming a filterable field. */
const v3Filters = (params: unknown): Row =>
  Object.fromEntries(
    V3_FILTERS.filter((name) => (params as Row)[name] !== undefined).map((name) => [name, (params as Row)[name]]),
  );

/**
 * APIv4 get over these fixed rows: `where` of `[field, "=", value]` clauses and `select`. Any other clause is
 * refused (never ignored, which would answer rows the caller excluded).
 */
function v4Rows(rows: Row[], params: unknown): Row[] {
  const { where = [], select = [] } = params as { where?: unknown[]; select?: string[] };
  const filters: Row = {};
  for (const clause of where) {
    if (!Array.isArray(clause) || clause.length !== 3 || typeof clause[0] !== 'string' || clause[1] !== '=')
      throw new KernelError('E_INVALID_PARAMS', 'where takes [field, "=", value] clauses here', {
        details: { error_field: 'where' },
      });
    filters[clause[0]] = clause[2];
  }
  const kept = filtered(rows, filters);
  if (!select.length) return kept;
  return kept.map((row) => Object.fromEntries(select.filter((name) => name in row).map((name) => [name, row[name]])));
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
const V4_PARAMS = {
  type: 'object',
  properties: {
    where: { type: 'array' },
    select: { type: 'array', items: { type: 'string' } },
    checkPermissions: { type: 'boolean' },
  },
};

export function defineSiteActions(actions: ActionRegistrar, plugins: Plugins): void {
  actions.define({
    version: 3,
    entity: 'Extension',
    action: 'get',
    description: "The service's plugins as the reference's extensions (key, status, version, description…)",
    params: { type: 'object' },
    permission: 'administer CRM',
    handler: (params) => v3(filtered(extensions(plugins), v3Filters(params))),
  });
  actions.define({
    version: 3,
    entity: 'Extension',
    action: 'getsingle',
    description: 'One plugin as an extension, every field (4.7.20)',
    params: { type: 'object' },
    permission: 'administer CRM',
    handler: (params) => {
      const rows = filtered(extensions(plugins), v3Filters(params));
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
    params: V4_PARAMS,
    permission: 'administer CRM',
    handler: (params) => v4Rows(extensions(plugins), params),
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
    params: V4_PARAMS,
    permission: 'access CRM',
    handler: (params) => v4Rows([{ ...DOMAIN }], params),
  });
}
