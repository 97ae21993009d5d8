/**
 * Hand-written probes: the cases issue 17 names (always tried, whatever the generators draw), the
 * credential mutations, a role-less user on every entity × action, and contact-ACL probes through
 * get, getcount, chains and joins.
 */
import { SignJWT } from 'jose';
import type { HostileRequest, HostileResponse } from './client';
import { enc, nested, type RouteInfo } from './generators';
import { SIGNING_SECRET, SITE_KEY, type Service } from './service';

type Obj = Record<string, unknown>;

/** rest-api3's legacy end-point under its default prefix. */
export const EXTERN = '/crm/extern/rest.php';

export type Fire = (req: HostileRequest) => Promise<HostileResponse | undefined>;

const form = (o: Record<string, string>) =>
  Object.entries(o)
    .map(([k, v]) => `${enc(k)}=${enc(v)}`)
    .join('&');

export function adminHeaders(svc: Service): Array<[string, string]> {
  return [
    ['X-Crm-Auth', `Bearer ${svc.admin.key}`],
    ['X-Requested-With', 'XMLHttpRequest'],
  ];
}

export function api4Request(
  headers: Array<[string, string]>,
  entity: string,
  action: string,
  params: unknown,
  label: string,
  method = 'POST',
): HostileRequest {
  const body = form({ params: JSON.stringify(params) });
  if (method === 'GET')
    return { method, path: `/crm/ajax/api4/${entity}/${action}?${body}`, headers, binding: 'api4', label };
  return {
    method,
    path: `/crm/ajax/api4/${entity}/${action}`,
    headers: [...headers, ['Content-Type', 'application/x-www-form-urlencoded']],
    body,
    binding: 'api4',
    label,
  };
}

export function api3Request(
  endpoint: 'ajax' | 'extern' | 'wp',
  key: string,
  siteKey: string,
  params: Record<string, string>,
  label: string,
  method = 'POST',
): HostileRequest {
  const path = endpoint === 'ajax' ? '/crm/ajax/rest' : endpoint === 'extern' ? EXTERN : '/wp-json/crm/v3/rest';
  const all = endpoint === 'ajax' ? params : { ...params, key: siteKey, api_key: key };
  const headers: Array<[string, string]> = endpoint === 'ajax' ? [['X-Crm-Auth', `Bearer ${key}`]] : [];
  const binding = endpoint === 'wp' ? 'api3wp' : 'api3';
  const xml = !('json' in params) || params.json === '';
  if (method === 'GET') return { method, path: `${path}?${form(all)}`, headers, binding, label, xml };
  return {
    method,
    path,
    headers: [...headers, ['Content-Type', 'application/x-www-form-urlencoded']],
    body: form(all),
    binding,
    label,
    xml,
  };
}

export async function signJwt(claims: Obj, header: Obj = { alg: 'HS256', kid: 'k1' }, secret = SIGNING_SECRET) {
  return new SignJWT(claims).setProtectedHeader(header as { alg: string }).sign(new TextEncoder().encode(secret));
}

/** The cases issue 17 lists, as requests (each is judged like any other). */
export async function knownCases(svc: Service): Promise<HostileRequest[]> {
  const out: HostileRequest[] = [];
  const key = svc.admin.key;
  const admin = adminHeaders(svc);
  for (const ep of ['ajax', 'extern', 'wp'] as const) {
    out.push(
      api3Request(
        ep,
        key,
        SITE_KEY,
        {
          entity: 'Contact',
          action: 'get',
          json: JSON.stringify({ id: svc.admin.contactId, 'api.Email.create': { email: 'over-get@example.org' } }),
        },
        'known: chained write over GET',
        'GET',
      ),
    );
    out.push(
      api3Request(
        ep,
        key,
        SITE_KEY,
        { entity: 'Contact', action: 'get', json: JSON.stringify({ 'api.Email.get': { 'api.Email.delete': {} } }) },
        'known: nested chained write over GET',
        'GET',
      ),
    );
    const chains: Obj = {};
    for (let i = 0; i < 5000; i++) chains[`api.Email.get.${i}`] = {};
    out.push(
      api3Request(
        ep,
        key,
        SITE_KEY,
        { entity: 'Contact', action: 'get', json: JSON.stringify({ id: svc.admin.contactId, ...chains }) },
        'known: 5,000 chains',
      ),
    );
    out.push(
      api3Request(
        ep,
        key,
        SITE_KEY,
        { entity: 'Contact', action: 'get', json: nested(5000) },
        'known: 5,000 levels of nesting (APIv3)',
      ),
    );
    out.push(
      api3Request(
        ep,
        key,
        SITE_KEY,
        {
          entity: 'Contact',
          action: 'get',
          json: JSON.stringify({ id: { IN: Array.from({ length: 70000 }, (_, i) => i) } }),
        },
        'known: IN list of 70,000 (APIv3)',
      ),
    );
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])
      out.push(
        api3Request(
          ep,
          key,
          SITE_KEY,
          {
            entity: 'Contact',
            action: 'get',
            json: JSON.stringify({ return: [name, 'id'], [name]: 1, sequential: 1 }),
          },
          `known: field name ${name}`,
        ),
      );
    const endpointPath = ep === 'ajax' ? '/crm/ajax/rest' : ep === 'extern' ? EXTERN : '/wp-json/crm/v3/rest';
    const cred = ep === 'ajax' ? '' : `&key=${enc(SITE_KEY)}&api_key=${key}`;
    const auth: Array<[string, string]> = ep === 'ajax' ? [['X-Crm-Auth', `Bearer ${key}`]] : [];
    const binding = ep === 'wp' ? 'api3wp' : 'api3';
    out.push({
      method: 'POST',
      path: endpointPath,
      headers: [...auth, ['Content-Type', 'application/x-www-form-urlencoded'], ['Content-Encoding', 'gzip']],
      body: `entity=Contact&action=get&json=1${cred}`,
      binding,
      label: 'known: Content-Encoding gzip on a plain body',
    });
    out.push({
      method: 'POST',
      path: `${endpointPath}?entity=Contact&action=get&json=1${cred}`,
      headers: [...auth, ['Content-Type', 'multipart/form-data']],
      body: '--x\r\n\r\n',
      binding,
      label: 'known: multipart without boundary',
    });
    out.push({
      method: 'POST',
      path: `${endpointPath}?entity=Contact&action=get&json=1${cred}`,
      headers: [...auth, ['Content-Type', 'application/x-www-form-urlencoded']],
      body: `json=1&pad=${'x'.repeat(3 * 1024 * 1024)}`,
      binding,
      label: 'known: oversized body',
    });
    out.push({
      method: 'POST',
      path: `${endpointPath}?entity=Contact&action=get&json=1${cred}`,
      headers: [...auth, ['Content-Type', 'application/json']],
      body: '{"entity":',
      binding,
      label: 'known: malformed JSON body',
    });
    for (const method of ['PUT', 'DELETE', 'PATCH', 'FOO'])
      out.push({
        method,
        path: `${endpointPath}?entity=Contact&action=get&json=1${cred}`,
        headers: auth,
        binding,
        label: `known: unsupported method ${method}`,
      });
  }
  // APIv4
  out.push(
    api4Request(
      admin,
      'Contact',
      'get',
      { where: [['id', 'IN', Array.from({ length: 70000 }, (_, i) => i)]] },
      'known: IN 70,000',
    ),
  );
  out.push({
    method: 'POST',
    path: '/crm/ajax/api4/Contact/get',
    headers: [...admin, ['Content-Type', 'application/x-www-form-urlencoded']],
    body: form({ params: `{"where":${nested(5000, '[', ']')}}` }),
    binding: 'api4',
    label: 'known: 5,000 levels of nesting (APIv4)',
  });
  out.push({
    method: 'POST',
    path: '/crm/ajax/api4/Contact/get',
    headers: [...admin, ['Content-Type', 'application/json']],
    body: nested(5000),
    binding: 'api4',
    label: 'known: 5,000 levels of nesting (APIv4 JSON body)',
  });
  out.push(
    api4Request(
      admin,
      'Contact',
      'get',
      {
        where: [['id', '=', svc.admin.contactId]],
        chain: { e: ['Email', 'create', { values: { email: 'v4get@example.org' } }] },
      },
      'known: APIv4 chained write over GET',
      'GET',
    ),
  );
  for (const name of ['constructor', 'toString', '__proto__'])
    out.push(
      api4Request(
        admin,
        'Contact',
        'get',
        { select: [name], where: [[name, '=', 1]], orderBy: { [name]: 'ASC' } },
        `known: APIv4 field ${name}`,
      ),
    );
  out.push(api4Request(admin, 'Contact', 'get', { limit: 1, index: 'constructor' }, 'known: APIv4 index constructor'));
  for (const method of ['PUT', 'DELETE', 'PATCH'])
    out.push({
      method,
      path: '/crm/ajax/api4/Contact/get',
      headers: admin,
      binding: 'api4',
      label: `known: APIv4 method ${method}`,
    });
  for (const [ct, body] of [
    ['multipart/form-data', '--x\r\n\r\n'],
    ['application/json', '{"where":'],
    ['application/x-www-form-urlencoded', `params=${'x'.repeat(3 * 1024 * 1024)}`],
  ])
    out.push({
      method: 'POST',
      path: '/crm/ajax/api4/Contact/get',
      headers: [...admin, ['Content-Type', ct]],
      body,
      binding: 'api4',
      label: `known: APIv4 bad body ${ct}`,
    });
  out.push({
    method: 'POST',
    path: '/crm/ajax/api4/Contact/get',
    headers: [...admin, ['Content-Type', 'application/x-www-form-urlencoded'], ['Content-Encoding', 'gzip']],
    body: 'params={}',
    binding: 'api4',
    label: 'known: APIv4 Content-Encoding gzip',
  });
  // Login and OAuth with NUL bytes; JWT subject beyond the integer range.
  out.push({
    method: 'POST',
    path: '/crm/login',
    headers: [['Content-Type', 'application/x-www-form-urlencoded']],
    body: form({ username: 'ad\u0000min', password: 'x' }),
    binding: 'page',
    label: 'known: NUL in login username',
  });
  out.push({
    method: 'GET',
    path: '/crm/oauth-client/return?state=CC_a%00b&code=x',
    binding: 'oauth',
    label: 'known: NUL in OAuth state',
  });
  out.push({
    method: 'GET',
    path: '/crm/oauth-client/start?state=CC_a%00b',
    binding: 'oauth',
    label: 'known: NUL in OAuth start state',
  });
  const now = Math.floor(Date.now() / 1000);
  for (const sub of ['cid:99999999999999', 'cid:2147483648', 'cid:0', 'cid:-1', 'cid:1e3', 'cid:constructor']) {
    const jwt = await signJwt({ sub, scope: 'authx', exp: now + 600 });
    out.push({
      method: 'GET',
      path: '/crm/ajax/api4/Contact/get',
      headers: [
        ['Authorization', `Bearer ${jwt}`],
        ['X-Requested-With', 'XMLHttpRequest'],
      ],
      binding: 'api4',
      label: `known: JWT sub ${sub}`,
    });
    out.push({
      method: 'GET',
      path: '/crm/authx/id',
      headers: [['X-Crm-Auth', `Bearer ${jwt}`]],
      binding: 'authx',
      label: `known: JWT sub ${sub} on authx`,
    });
  }
  return out;
}

/** Routes as the generators see them: path, methods, and the wire contract their answers keep. */
export function routeInfos(svc: Service): RouteInfo[] {
  const out: RouteInfo[] = [];
  for (const route of svc.routes) {
    const binding =
      route.name === 'ajax' || route.name === 'extern'
        ? 'api3'
        : route.name === 'wp'
          ? 'api3wp'
          : /call$|multi$/.test(route.name)
            ? 'api4'
            : route.name.startsWith('authx')
              ? 'authx'
              : route.plugin === 'oauth-client'
                ? 'oauth'
                : 'page';
    for (const path of ([] as string[]).concat(route.path)) out.push({ path, methods: route.methods, binding });
  }
  return out;
}
