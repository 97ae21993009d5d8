/** The benchmark scenarios: each a request autocannon repeats, and a check that it really succeeds. */
import { contributeScenarios } from './scenarios-contribute';
import { customScenarios } from './seed-custom';
import { bulkScenarios } from './scenarios-bulk';

export interface BenchCredentials {
  apiKey?: string;
  jwt?: string;
  siteKey?: string;
  /** One seeded contact's primary email, for the exact-match (constant result size) scenarios. */
  email?: string;
  /** The seeded group (every 20th contact a member), when entity-group's tables are there. */
  groupId?: number;
  /** Whether the bench custom fields were made and filled (custom-data enabled). */
  customData?: boolean;
  /** A seeded contact who contributes, when entity-contribute's tables are there. */
  contributorId?: number;
}

export interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** The baseline page answering the same rows (bench/sql.ts BASELINE_PAGES); default `/contacts`. */
  baseline?: string;
  /** Concurrent connections for this scenario (default `--connections`): heavy calls queue otherwise. */
  connections?: number;
  /** Also measure PostgreSQL alone on the baseline page's statement (pgbench.ts), reported beside the ratio. */
  pgbench?: boolean;
  /** One request made before loading: returns a problem, or undefined when the answer is right. */
  check(url: string): Promise<string | undefined>;
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

function api3(
  name: string,
  entity: string,
  action: string,
  params: Record<string, unknown>,
  auth: Record<string, string>,
  method: 'GET' | 'POST' = 'POST',
  extra: Record<string, string> = {},
): Scenario {
  const fields = { entity, action, json: JSON.stringify(params), ...extra };
  const headers = {
    'X-Requested-With': 'XMLHttpRequest',
    ...auth,
    ...(method === 'POST' ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
  };
  const path = method === 'GET' ? `/crm/ajax/rest?${form(fields)}` : '/crm/ajax/rest';
  const body = method === 'POST' ? form(fields) : undefined;
  return {
    name,
    method,
    path,
    headers,
    body,
    async check(url) {
      const res = await fetch(url + path, { method, headers, body });
      const text = await res.text();
      if (res.status !== 200) return `HTTP ${res.status}: ${text.slice(0, 200)}`;
      try {
        const json = JSON.parse(text);
        return json.is_error ? `is_error: ${json.error_message}` : undefined;
      } catch {
        return `not JSON: ${text.slice(0, 200)}`;
      }
    },
  };
}

function api4(
  name: string,
  entityAction: string,
  params: Record<string, unknown>,
  auth: Record<string, string>,
): Scenario {
  const path = `/crm/ajax/api4/${entityAction}`;
  const headers = { ...auth, 'Content-Type': 'application/x-www-form-urlencoded' };
  const body = form({ params: JSON.stringify(params) });
  return {
    name,
    method: 'POST',
    path,
    headers,
    body,
    async check(url) {
      const res = await fetch(url + path, { method: 'POST', headers, body });
      const text = await res.text();
      if (res.status !== 200) return `HTTP ${res.status}: ${text.slice(0, 200)}`;
      return Array.isArray(JSON.parse(text).values) ? undefined : `no values: ${text.slice(0, 200)}`;
    },
  };
}

export function scenarios(credentials: BenchCredentials): Scenario[] {
  const key: Record<string, string> = credentials.apiKey ? { 'X-Crm-Auth': `Bearer ${credentials.apiKey}` } : {};
  const list: Scenario[] = [
    {
      ...api3(
        'v3 Contact.get (25, sort_name)',
        'Contact',
        'get',
        { sequential: 1, options: { limit: 25, sort: 'sort_name' } },
        key,
        'GET',
      ),
      pgbench: true,
    },
    // No sort: sorting by sort_name while filtering on last_name falls into the planner's ORDER BY +
    // LIMIT trap (the two are correlated); docs/performance.md shows the plan.
    api3(
      'v3 Contact.get last_name LIKE + return',
      'Contact',
      'get',
      { last_name: { LIKE: 'Smi%' }, return: ['id', 'display_name', 'email'] },
      key,
      'GET',
    ),
    api3('v3 Contact.getcount (last_name LIKE)', 'Contact', 'getcount', { last_name: { LIKE: 'Smi%' } }, key, 'GET'),
    api3(
      'v3 Contact.create',
      'Contact',
      'create',
      { contact_type: 'Individual', first_name: 'Bench', last_name: 'Mark' },
      key,
    ),
    api3(
      'v3 Contact.get + api.Email.get (chained)',
      'Contact',
      'get',
      { options: { limit: 25, sort: 'sort_name' }, return: ['id', 'display_name'], 'api.Email.get': {} },
      key,
      'GET',
    ),
  ];
  if (credentials.email) {
    // One match whatever the table size: what an indexed lookup costs as the data grows.
    list.push(
      api3(
        'v3 Contact.get email = (1 match)',
        'Contact',
        'get',
        { email: credentials.email, return: ['id', 'display_name', 'email'] },
        key,
        'GET',
      ),
    );
    list.push(
      api3('v3 Contact.getcount email = (1 match)', 'Contact', 'getcount', { email: credentials.email }, key, 'GET'),
    );
  }
  if (credentials.groupId !== undefined) {
    list.push({
      ...api3(
        'v3 Contact.get group = (25, sort_name)',
        'Contact',
        'get',
        { group: credentials.groupId, sequential: 1, options: { limit: 25, sort: 'sort_name' } },
        key,
        'GET',
      ),
      baseline: '/contacts-in-group',
    });
  }
  // X-Crm-Auth is CSRF-exempt (xheader flow), as for APIv3.
  list.push(
    api4(
      'v4 Contact.get select + where',
      'Contact/get',
      {
        select: ['id', 'display_name', 'sort_name'],
        where: [
          ['contact_type', '=', 'Individual'],
          ['is_deleted', '=', false],
        ],
        orderBy: { sort_name: 'ASC' },
        limit: 25,
      },
      key,
    ),
  );
  list.push({
    ...api4(
      'v4 Contact.get email_primary.email (25, sort_name)',
      'Contact/get',
      { select: ['id', 'display_name', 'email_primary.email'], orderBy: { sort_name: 'ASC' }, limit: 25 },
      key,
    ),
    baseline: '/contacts-email-primary',
  });
  list.push({
    ...api4('v4 Contact.autocomplete input (15)', 'Contact/autocomplete', { input: 'jones' }, key),
    baseline: '/contacts-autocomplete',
  });
  list.push({
    ...api4(
      'v4 Contact.get COUNT(id) groupBy contact_type',
      'Contact/get',
      { select: ['contact_type', 'COUNT(id) AS n'], groupBy: ['contact_type'] },
      key,
    ),
    baseline: '/contacts-by-type',
  });
  list.push(...customScenarios(credentials, key, api4));
  list.push({
    ...api4(
      'v4 Activity.get + source and targets (25)',
      'Activity/get',
      {
        select: ['id', 'subject', 'activity_type_id', 'status_id', 'source_contact_id', 'target_contact_id'],
        orderBy: { id: 'ASC' },
        limit: 25,
      },
      key,
    ),
    baseline: '/activities',
  });
  list.push(...contributeScenarios(credentials, key, api3, api4));
  if (credentials.jwt)
    list.push(
      api3(
        'v3 Contact.get by JWT',
        'Contact',
        'get',
        { options: { limit: 25, sort: 'sort_name' } },
        { Authorization: `Bearer ${credentials.jwt}` },
        'GET',
      ),
    );
  if (credentials.apiKey && credentials.siteKey) {
    list.push(
      api3(
        'v3 Contact.get by legacy keys',
        'Contact',
        'get',
        { options: { limit: 25, sort: 'sort_name' } },
        {},
        'GET',
        { key: credentials.siteKey, api_key: credentials.apiKey },
      ),
    );
  }
  // Last: a heavy write whose calls must not still be running when another scenario is measured.
  list.push(...bulkScenarios(key, api4));
  return list;
}
