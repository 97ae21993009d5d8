/**
 * `OAuthProvider.get` and `OAuthProvider.getFields` (APIv4, read-only): providers are not rows but the
 * providers service's list, so where / select / orderBy / limit are applied here, over that list.
 */
import { KernelError, type ActionRegistrar } from '../../kernel';
import type { ProviderRegistry } from './providers';
import type { Row } from './store';
import type { ProviderRecord } from './types';

export function defineProviderActions(
  actions: ActionRegistrar,
  providers: () => ProviderRegistry,
  selectorProps: Record<string, object>,
): void {
  // ---- OAuthProvider (read-only, over the providers service) ----
  actions.define({
    version: 4,
    entity: 'OAuthProvider',
    action: 'get',
    description: 'Lists OAuth providers (where on name, title, class, tags — CONTAINS — ; select; orderBy; limit)',
    params: {
      type: 'object',
      additionalProperties: false,
      properties: { ...selectorProps, select: { type: 'array', items: { type: 'string' } } },
    },
    permission: 'access CRM',
    async handler(params) {
      return queryProviders(await providers().list(), params);
    },
  });
  actions.define({
    version: 4,
    entity: 'OAuthProvider',
    action: 'getFields',
    description: 'Fields of OAuthProvider',
    params: { type: 'object', properties: { select: { type: 'array' } }, additionalProperties: true },
    permission: 'access CRM',
    handler: () => PROVIDER_FIELDS.map((f) => ({ ...f, entity: 'OAuthProvider', readonly: true })),
  });
}

export const PROVIDER_FIELDS = [
  { name: 'name', data_type: 'String', title: 'Name' },
  { name: 'title', data_type: 'String', title: 'Title' },
  { name: 'class', data_type: 'String', title: 'Provider class' },
  { name: 'options', data_type: 'Array', title: 'Options' },
  { name: 'tags', data_type: 'Array', title: 'Tags' },
  { name: 'contactTemplate', data_type: 'Array', title: 'Contact template' },
  { name: 'mailSettingsTemplate', data_type: 'Array', title: 'Mail settings template' },
  { name: 'templates', data_type: 'Array', title: 'Templates' },
  {
    name: 'source',
    data_type: 'String',
    title: 'Where it came from (providers/… file, private:oauth-providers/…, plugin:<name>)',
  },
];
const FIELD_NAMES = PROVIDER_FIELDS.map((f) => f.name);

function likeToRegExp(pattern: string): RegExp {
  const esc = pattern
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/%/g, '.*')
    .replace(/_/g, '.');
  return new RegExp(`^${esc}$`, 'is');
}

function matches(provider: Row, clause: unknown): boolean {
  if (!Array.isArray(clause))
    throw new KernelError('E_INVALID_PARAMS', 'Each where clause is [field, operator, value]');
  if (clause[0] === 'OR' && Array.isArray(clause[1])) return clause[1].some((c) => matches(provider, c));
  if (clause[0] === 'AND' && Array.isArray(clause[1])) return clause[1].every((c) => matches(provider, c));
  const [field, rawOp, value] = clause as [string, string, unknown];
  if (!FIELD_NAMES.includes(field)) throw new KernelError('E_INVALID_PARAMS', `Invalid field '${String(field)}'`);
  const actual = provider[field];
  switch (String(rawOp).toUpperCase()) {
    case '=':
      return actual === value;
    case '!=':
    case '<>':
      return actual !== value;
    case 'LIKE':
      return typeof actual === 'string' && likeToRegExp(String(value)).test(actual);
    case 'NOT LIKE':
      return !(typeof actual === 'string' && likeToRegExp(String(value)).test(actual));
    case 'IN':
      return Array.isArray(value) && value.includes(actual);
    case 'NOT IN':
      return Array.isArray(value) && !value.includes(actual);
    case 'CONTAINS':
      return Array.isArray(actual) && actual.includes(value);
    case 'IS NULL':
      return actual === undefined || actual === null;
    case 'IS NOT NULL':
      return actual !== undefined && actual !== null;
    default:
      throw new KernelError('E_INVALID_PARAMS', `Illegal operator ${String(rawOp)}`);
  }
}

export function queryProviders(list: ProviderRecord[], params: Row): Row[] {
  let rows: Row[] = list.map((p) => ({
    name: p.name,
    title: p.title,
    class: p.class ?? 'generic',
    options: p.options ?? {},
    tags: p.tags ?? [],
    contactTemplate: p.contactTemplate ?? null,
    mailSettingsTemplate: p.mailSettingsTemplate ?? null,
    templates: p.templates ?? null,
    source: p.source ?? null,
  }));
  const where = (params.where ?? []) as unknown[];
  if (!Array.isArray(where)) throw new KernelError('E_INVALID_PARAMS', 'where must be an array');
  rows = rows.filter((r) => where.every((c) => matches(r, c)));
  const orderBy = (params.orderBy ?? {}) as Record<string, string>;
  const keys = Object.entries(orderBy);
  for (const [k, dir] of keys) {
    if (!FIELD_NAMES.includes(k)) throw new KernelError('E_INVALID_PARAMS', `Invalid field '${k}'`);
    if (!/^(ASC|DESC)$/i.test(String(dir)))
      throw new KernelError('E_INVALID_PARAMS', `orderBy direction must be ASC or DESC`);
  }
  rows.sort((a, b) => {
    for (const [k, d] of keys) {
      const c = String(a[k] ?? '').localeCompare(String(b[k] ?? ''));
      if (c) return /^desc$/i.test(d) ? -c : c;
    }
    return 0;
  });
  const offset = (params.offset as number | undefined) ?? 0;
  const limit = params.limit as number | undefined;
  rows = rows.slice(offset, limit ? offset + limit : undefined);
  const select = params.select as string[] | undefined;
  if (select?.length) {
    for (const field of select)
      if (!FIELD_NAMES.includes(field)) throw new KernelError('E_INVALID_PARAMS', `Invalid field '${field}'`);
    rows = rows.map((r) => Object.fromEntries(select.map((f) => [f, r[f]])));
  }
  return rows;
}
