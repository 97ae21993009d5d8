/**
 * Generated hostile requests (fast-check): every route the service mounts, with malformed and deeply
 * nested JSON, huge bodies and parameter counts, bracket abuse, unknown names, SQL and XML
 * metacharacters, invalid UTF-8, NUL bytes, duplicate parameters, writes over GET (chains too), odd
 * methods and encodings. Plus the fixed cases the issue names, so they are always tried.
 */
import fc from 'fast-check';
import type { Binding, HostileRequest } from './client';

type Obj = Record<string, unknown>;

export interface Credentials {
  adminKey: string;
  selfieKey: string;
  nobodyKey: string;
  siteKey: string;
  jwt: string;
}

export interface RouteInfo {
  path: string;
  methods: string[];
  binding: Binding;
}

/** encodeURIComponent that also encodes lone surrogates (as their WTF-8 bytes: invalid UTF-8 on purpose). */
export function enc(text: string): string {
  const wtf8 = (code: number) =>
    `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}` +
    `%${(0x80 | (code & 0x3f)).toString(16)}`;
  return text
    .replace(/[\uD800-\uDFFF]/g, (unit, i: number) => {
      const code = unit.charCodeAt(0);
      const pairHigh = code < 0xdc00 && /[\uDC00-\uDFFF]/.test(text[i + 1] ?? '');
      const pairLow = code >= 0xdc00 && /[\uD800-\uDBFF]/.test(text[i - 1] ?? '');
      if (pairHigh || pairLow) return unit;
      return `\u0000LONE${code.toString(16)}\u0000`;
    })
    .split(/\u0000LONE([0-9a-f]{4})\u0000/)
    .map((part, i) => (i % 2 ? wtf8(parseInt(part, 16)) : encodeURIComponent(part)))
    .join('');
}

const ENTITIES = [
  'Contact',
  'Email',
  'Phone',
  'Address',
  'OptionValue',
  'OptionGroup',
  'OAuthClient',
  'OAuthContactToken',
  'OAuthSysToken',
  'Entity',
  'System',
  'Setting',
  'Nope',
  'contact',
  'api3',
  'constructor',
  '__proto__',
  'toString',
  'Contact;drop table crm_contact',
  "Contact'",
  'Contact<x>',
];
const ACTIONS = [
  'get',
  'getsingle',
  'getcount',
  'getvalue',
  'getfields',
  'getoptions',
  'getActions',
  'getFields',
  'getlist',
  'create',
  'update',
  'save',
  'delete',
  'replace',
  'setvalue',
  'validate',
  'check',
  'call',
  'autocomplete',
  'constructor',
  'toString',
  '__proto__',
  'hasOwnProperty',
  'get;',
  'getX',
];
const FIELDS = [
  'id',
  'display_name',
  'first_name',
  'last_name',
  'contact_type',
  'contact_id',
  'email',
  'is_primary',
  'created_date',
  'contact_id.display_name',
  'contact_id.contact_id.id',
  'email_primary.email',
  // Explicit joins' alias (`j`) and SQL functions (APIv4 select, groupBy, having, orderBy).
  'j.id',
  'j.contact_id',
  'COUNT(id) AS n',
  'COUNT(*)',
  'GROUP_CONCAT(DISTINCT j.id) AS ids',
  'SUM(display_name)',
  'MAX(created_date) AS latest',
  'FROB(id)',
  'COUNT(id); select 1 AS n',
  'n',
  'constructor',
  '__proto__',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'id; drop table crm_contact',
  'id"',
  "a'b",
  'nope',
  'first_name:label',
  'contact_type:name',
  '*',
  'row_count',
  'api_key',
  'password_hash',
];
const OPS = [
  '=',
  '!=',
  '<>',
  '>',
  '<=',
  'IN',
  'NOT IN',
  'LIKE',
  'NOT LIKE',
  'BETWEEN',
  'IS NULL',
  'IS NOT NULL',
  'CONTAINS',
  'REGEXP',
  '; DROP',
  'in',
  '',
  'constructor',
];
const NASTY = [
  "' OR '1'='1",
  '1; DROP TABLE crm_contact; --',
  '"; select pg_sleep(5); --',
  "') union select * from crm_user --",
  '%',
  '_',
  '\\',
  '\u0000',
  'a\u0000b',
  '\uFFFE',
  '\uFFFF',
  '\u0001\u0002\u001f',
  '\uD800',
  ']]>',
  '<![CDATA[x]]>',
  '<script>alert(1)</script>',
  '&amp;&#0;&#xFFFE;',
  '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
  '${7*7}',
  '{{7*7}}',
  '../../../../etc/passwd',
  '%00',
  '%',
  '1e309',
  '-0',
  '9223372036854775808',
  '99999999999999999999999',
  '-2147483649',
  'NaN',
  'Infinity',
  'true',
  'null',
  '[]',
  '{}',
  ' ',
  '',
  'x'.repeat(300),
  '🙂',
  '\u202E',
];

const nasty = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
);
const scalar: fc.Arbitrary<unknown> = fc.oneof(
  nasty,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((b) => Number(b)),
);
const fieldName = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...FIELDS) }, { weight: 1, arbitrary: nasty });
const entityName = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...ENTITIES) }, { weight: 1, arbitrary: nasty });
const actionName = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...ACTIONS) }, { weight: 1, arbitrary: nasty });
const opName = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...OPS) }, { weight: 1, arbitrary: nasty });

const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fieldName, tie('v'), { maxKeys: 4 }),
  ),
})).v;

/** `{"a":{"a":…}}` n levels deep, built as text (no recursion here). */
export function nested(n: number, open = '{"a":', close = '}'): string {
  return open.repeat(n) + '1' + close.repeat(n);
}

/** APIv3 params: fields, options, return, chains (reads and writes), operators. */
const api3Params: fc.Arbitrary<Obj> = fc
  .record(
    {
      fields: fc.dictionary(fieldName, value, { maxKeys: 4 }),
      ops: fc.array(fc.tuple(fieldName, opName, value), { maxLength: 2 }),
      options: fc.record(
        {
          limit: fc.oneof(fc.integer({ min: -5, max: 100000 }), nasty),
          offset: fc.oneof(fc.integer({ min: -5, max: 1000 }), nasty),
          sort: fc.oneof(fieldName, fc.constantFrom('id DESC', 'id; drop', 'display_name ASC, id', '(select 1)')),
        },
        { requiredKeys: [] },
      ),
      ret: fc.oneof(fc.array(fieldName, { maxLength: 4 }), fieldName),
      chains: fc.array(fc.tuple(entityName, actionName, fc.dictionary(fieldName, value, { maxKeys: 3 })), {
        maxLength: 3,
      }),
      seq: fc.boolean(),
    },
    { requiredKeys: [] },
  )
  .map((r) => {
    const p: Obj = { ...(r.fields ?? {}) };
    for (const [f, op, v] of r.ops ?? []) p[f] = { [op]: v };
    if (r.options) p.options = r.options;
    if (r.ret !== undefined) p.return = r.ret;
    for (const [e, a, params] of r.chains ?? []) p[`api.${e}.${a}`] = params;
    if (r.seq) p.sequential = 1;
    return p;
  });

/** APIv4 params: select, where (nested groups), orderBy, joins, chains, limit. */
const condition: fc.Arbitrary<unknown> = fc.letrec<{ c: unknown }>((tie) => ({
  c: fc.oneof(
    { depthSize: 'small' },
    fc.tuple(fieldName, opName, value),
    fc.tuple(fieldName, opName),
    fc.tuple(fc.constantFrom('OR', 'AND', 'NOT', 'XOR'), fc.array(tie('c'), { maxLength: 3 })),
    value,
  ),
})).c;
const api4Params: fc.Arbitrary<Obj> = fc.record(
  {
    select: fc.array(fieldName, { maxLength: 4 }),
    where: fc.array(condition, { maxLength: 3 }),
    orderBy: fc.dictionary(fieldName, fc.oneof(fc.constantFrom('ASC', 'DESC'), nasty), { maxKeys: 2 }),
    join: fc.array(
      fc.tuple(
        fc.oneof(
          entityName.map((e) => `${e} AS j`),
          nasty,
        ),
        fc.constantFrom('LEFT', 'INNER', 'EXCLUDE', 'RIGHT', 'x'),
        fc.oneof(fc.constant(undefined), fieldName),
        fc.tuple(fieldName, opName, fieldName),
      ),
      { maxLength: 2 },
    ),
    limit: fc.oneof(fc.integer({ min: -5, max: 1000000 }), nasty),
    offset: fc.oneof(fc.integer({ min: -5, max: 1000 }), nasty),
    values: fc.dictionary(fieldName, value, { maxKeys: 3 }),
    chain: fc.dictionary(
      fc.constantFrom('a', 'b', 'constructor', '__proto__'),
      fc.tuple(entityName, actionName, fc.dictionary(fc.constantFrom('values', 'where', 'select'), value)),
      { maxKeys: 2 },
    ),
    checkPermissions: fc.boolean(),
    groupBy: fc.array(fieldName, { maxLength: 2 }),
    having: fc.array(condition, { maxLength: 1 }),
  },
  { requiredKeys: [] },
);

/** Query-string pairs with bracket abuse, duplicates and odd encodings. */
const BRACKET_NAMES = [
  'a[',
  'a]',
  'a[[b]]',
  'a[b][c][d][e][f][g]',
  '[]',
  '[x]',
  'return[]',
  'return[constructor]',
  'return[__proto__]',
  'options[limit]',
  'options[sort]',
  'id[IN][]',
  'id[BETWEEN][]',
  '__proto__[x]',
  'constructor[prototype][x]',
  'api.Email.get[contact_id]',
  'api.Email.create[email]',
  'sequential',
  'json',
  'json[]',
  'entity[]',
  'action[]',
  'prettyprint',
  'version',
  'debug',
  'check_permissions',
  'q',
  'entity',
  'action',
];
const pairName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...BRACKET_NAMES) },
  { weight: 2, arbitrary: fieldName },
  { weight: 1, arbitrary: nasty },
);
const pairValue = fc.oneof(nasty, fieldName, entityName, actionName, fc.integer().map(String));
const pairs = fc.array(fc.tuple(pairName, pairValue), { maxLength: 8 });

function qs(ps: Array<[string, string]>): string {
  return ps.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
}

function credentialFor(
  binding: Binding,
  who: 'admin' | 'selfie' | 'nobody' | 'none',
  creds: Credentials,
): {
  headers: Array<[string, string]>;
  params: Array<[string, string]>;
} {
  const key = who === 'admin' ? creds.adminKey : who === 'selfie' ? creds.selfieKey : creds.nobodyKey;
  if (who === 'none') return { headers: [], params: [] };
  if (binding === 'api3' || binding === 'api3wp')
    return {
      headers: [['X-Crm-Auth', `Bearer ${key}`]],
      params: [
        ['key', creds.siteKey],
        ['api_key', key],
      ],
    };
  return {
    headers: [
      ['X-Crm-Auth', `Bearer ${key}`],
      ['X-Requested-With', 'XMLHttpRequest'],
    ],
    params: [],
  };
}

const who = fc.constantFrom<'admin' | 'selfie' | 'nobody' | 'none'>(
  'admin',
  'admin',
  'admin',
  'selfie',
  'nobody',
  'none',
);

/** A JSON text: valid, malformed, or deeply nested. */
function jsonText(values: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 8, arbitrary: values.map((x) => JSON.stringify(x) ?? 'null') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '{',
        '{"a":',
        '{"a":1,}',
        "{'a':1}",
        '[1,2',
        '{"a":1}{"b":2}',
        '\u0000{}',
        '{"__proto__":{"is_error":0}}',
        '{"constructor":{"prototype":{"x":1}}}',
        nested(200),
        nested(3000, '[', ']'),
        nested(5000),
        '1e999999',
        '"string"',
        '{"a":"\\ud800"}',
      ),
    },
  );
}

/** Chooses a route from the mounted ones per binding. */
function routesOf(routes: RouteInfo[], binding: Binding): RouteInfo[] {
  return routes.filter((r) => r.binding === binding);
}

export function requestArbitrary(routes: RouteInfo[], creds: Credentials): fc.Arbitrary<HostileRequest> {
  const api3Routes = routes.filter((r) => r.binding === 'api3' || r.binding === 'api3wp');
  const api4Single = routesOf(routes, 'api4').filter((r) => r.path.includes(':entity'));
  const api4Multi = routesOf(routes, 'api4').filter((r) => !r.path.includes(':entity'));
  const pages = routes.filter((r) => r.binding === 'page' || r.binding === 'authx' || r.binding === 'oauth');

  const api3 = fc
    .record({
      route: fc.constantFrom(...api3Routes),
      method: fc.constantFrom('GET', 'POST', 'GET', 'POST', 'HEAD'),
      who,
      entity: entityName,
      action: actionName,
      style: fc.constantFrom('json', 'pairs', 'both'),
      params: api3Params,
      text: jsonText(api3Params),
      extra: pairs,
      xml: fc.boolean(),
      bodyType: fc.constantFrom('form', 'json', 'multipart', 'none'),
    })
    .map((r): HostileRequest => {
      const cred = credentialFor(r.route.binding, r.who, creds);
      const ps: Array<[string, string]> = [['entity', r.entity], ['action', r.action], ...cred.params];
      if (r.style !== 'pairs') ps.push(['json', r.text]);
      else if (!r.xml) ps.push(['json', '1']);
      if (r.style !== 'json') ps.push(...r.extra);
      if (r.xml && r.style !== 'pairs') ps.push(['json', '']);
      return build(r.route, r.method, ps, cred.headers, r.bodyType, `api3 ${r.style}`, r.xml);
    });

  const api4 = fc
    .record({
      route: fc.constantFrom(...api4Single),
      method: fc.constantFrom('GET', 'POST', 'POST'),
      who,
      entity: entityName,
      action: actionName,
      params: api4Params,
      text: jsonText(api4Params),
      extra: pairs,
      bodyType: fc.constantFrom('form', 'json', 'multipart'),
    })
    .map((r): HostileRequest => {
      const cred = credentialFor('api4', r.who, creds);
      const path = r.route.path.replace(':entity', enc(r.entity)).replace(':action', enc(r.action));
      const ps: Array<[string, string]> = [['params', r.text], ...r.extra.slice(0, 2)];
      return build({ ...r.route, path }, r.method, ps, cred.headers, r.bodyType, 'api4 single', false);
    });

  const api4m = fc
    .record({
      route: fc.constantFrom(...api4Multi),
      method: fc.constantFrom('GET', 'POST'),
      who,
      calls: fc.dictionary(
        fc.constantFrom('a', 'b', '__proto__', 'constructor', '0'),
        fc.tuple(entityName, actionName, api4Params, fc.oneof(fc.constant(undefined), fieldName, fc.integer())),
        { maxKeys: 3 },
      ),
      raw: fc.option(jsonText(value), { nil: undefined }),
    })
    .map((r): HostileRequest => {
      const cred = credentialFor('api4', r.who, creds);
      const ps: Array<[string, string]> = [['calls', r.raw ?? JSON.stringify(r.calls)]];
      return build(r.route, r.method, ps, cred.headers, 'form', 'api4 multi', false);
    });

  const page = fc
    .record({
      route: fc.constantFrom(...pages),
      method: fc.constantFrom('GET', 'POST', 'HEAD'),
      file: fc.constantFrom('app.js', '../register.ts', '..%2f..%2fpackage.json', '%00', 'x.css', '....//x', '%2e%2e'),
      extra: pairs,
      form: fc.array(
        fc.tuple(
          fc.constantFrom(
            'username',
            'password',
            'csrf',
            'destination',
            'state',
            'code',
            'error',
            '_authx',
            'username[]',
          ),
          pairValue,
        ),
        { maxLength: 5 },
      ),
    })
    .map((r): HostileRequest => {
      const path = r.route.path.replace(':file', r.file);
      const method = r.route.methods.includes(r.method) ? r.method : r.route.methods[0];
      return build({ ...r.route, path }, method, [...r.form, ...r.extra], [], 'form', `page ${r.route.path}`, false);
    });

  return fc.oneof(
    { weight: 6, arbitrary: api3 },
    { weight: 4, arbitrary: api4 },
    { weight: 1, arbitrary: api4m },
    { weight: 2, arbitrary: page },
    { weight: 2, arbitrary: transportAbuse(routes, creds) },
  );
}

function multipart(ps: Array<[string, string]>, boundary: string): string {
  return (
    ps
      .map(
        ([k, v]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/["\r\n]/g, '_')}"\r\n\r\n${v}\r\n`,
      )
      .join('') + `--${boundary}--\r\n`
  );
}

/** A request with its params in the query (GET/HEAD) or in a body of the given type. */
function build(
  route: RouteInfo,
  method: string,
  ps: Array<[string, string]>,
  headers: Array<[string, string]>,
  bodyType: 'form' | 'json' | 'multipart' | 'none',
  label: string,
  xml: boolean,
): HostileRequest {
  const base = { binding: route.binding, label, xml, headers: [...headers] };
  if (method === 'GET' || method === 'HEAD' || bodyType === 'none')
    return { ...base, method, path: `${route.path}?${qs(ps)}` };
  if (bodyType === 'json') {
    const obj: Obj = {};
    for (const [name, value] of ps) obj[name] = value;
    base.headers.push(['Content-Type', 'application/json']);
    return { ...base, method, path: route.path, body: JSON.stringify(obj) };
  }
  if (bodyType === 'multipart') {
    base.headers.push(['Content-Type', 'multipart/form-data; boundary=XyZ']);
    return { ...base, method, path: route.path, body: multipart(ps, 'XyZ') };
  }
  base.headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
  return { ...base, method, path: route.path, body: qs(ps) };
}

/** Odd methods, encodings, content types, huge bodies and parameter counts, invalid UTF-8. */
function transportAbuse(routes: RouteInfo[], creds: Credentials): fc.Arbitrary<HostileRequest> {
  const concrete = routes.map((route) => ({
    ...route,
    path: route.path.replace(':entity', 'Contact').replace(':action', 'get').replace(':file', 'app.js'),
  }));
  return fc
    .record({
      route: fc.constantFrom(...concrete),
      method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'FOO', 'HEAD'),
      kind: fc.constantFrom(
        'gzip',
        'deflate',
        'br',
        'weird-encoding',
        'multipart-no-boundary',
        'multipart-broken',
        'multipart-file',
        'json-broken',
        'json-deep',
        'json-array',
        'json-scalar',
        'huge-body',
        'many-params',
        'invalid-utf8',
        'charset',
        'xml-body',
        'dup-params',
        'long-url',
        'nul-path',
      ),
      admin: fc.boolean(),
    })
    .map((drawn): HostileRequest => {
      const headers: Array<[string, string]> = drawn.admin
        ? [
            ['X-Crm-Auth', `Bearer ${creds.adminKey}`],
            ['X-Requested-With', 'XMLHttpRequest'],
          ]
        : [];
      const req: HostileRequest = {
        method: drawn.method,
        path: drawn.route.path,
        headers,
        binding: drawn.route.binding,
        label: `transport ${drawn.kind}`,
      };
      const form = (s: string) => {
        headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
        req.body = s;
      };
      const api = 'entity=Contact&action=get&json=1';
      switch (drawn.kind) {
        case 'gzip':
        case 'deflate':
        case 'br':
        case 'weird-encoding':
          headers.push(['Content-Encoding', drawn.kind === 'weird-encoding' ? 'x-zork, gzip' : drawn.kind]);
          form(api);
          break;
        case 'multipart-no-boundary':
          headers.push(['Content-Type', 'multipart/form-data']);
          req.body = '--x\r\nContent-Disposition: form-data; name="entity"\r\n\r\nContact\r\n--x--\r\n';
          break;
        case 'multipart-broken':
          headers.push(['Content-Type', 'multipart/form-data; boundary=abc']);
          req.body = '--abc\r\nContent-Disposition: form-data; name="entity"\r\n\r\nContact';
          break;
        case 'multipart-file':
          headers.push(['Content-Type', 'multipart/form-data; boundary=abc']);
          req.body =
            '--abc\r\nContent-Disposition: form-data; name="f"; filename="x.php"\r\n' +
            'Content-Type: text/plain\r\n\r\n<?php ?>\r\n--abc--\r\n';
          break;
        case 'json-broken':
          headers.push(['Content-Type', 'application/json']);
          req.body = '{"entity":"Contact",';
          break;
        case 'json-deep':
          headers.push(['Content-Type', 'application/json']);
          req.body = nested(5000);
          break;
        case 'json-array':
          headers.push(['Content-Type', 'application/json']);
          req.body = '[1,2,3]';
          break;
        case 'json-scalar':
          headers.push(['Content-Type', 'application/json']);
          req.body = '"x"';
          break;
        case 'huge-body':
          form(`${api}&pad=${'x'.repeat(3 * 1024 * 1024)}`);
          break;
        case 'many-params':
          form(`${api}&${Array.from({ length: 5000 }, (_, i) => `p${i}=${i}`).join('&')}`);
          break;
        case 'invalid-utf8':
          headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
          req.body = Buffer.concat([
            Buffer.from(`${api}&first_name=`),
            Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0x00, 0xed, 0xa0, 0x80]),
          ]);
          req.path += '?x=%C3%28%FF%ED%A0%80';
          break;
        case 'charset':
          headers.push(['Content-Type', 'application/x-www-form-urlencoded; charset=utf-7']);
          req.body = api;
          break;
        case 'xml-body':
          headers.push(['Content-Type', 'application/xml']);
          req.body = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>';
          break;
        case 'dup-params':
          req.path += '?entity=Contact&entity=Email&action=get&action=create&json=1&json=%7B%7D';
          break;
        case 'long-url':
          req.path += `?entity=Contact&action=get&json=1&x=${'a'.repeat(12000)}`;
          break;
        case 'nul-path':
          req.path += '%00?entity=Contact%00&action=get%00&json=1';
          break;
      }
      return req;
    });
}

export function sampleRequests(arb: fc.Arbitrary<HostileRequest>, n: number, seed: number): HostileRequest[] {
  return fc.sample(arb, { numRuns: n, seed });
}
