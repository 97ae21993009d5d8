/**
 * The bypass pass: every credential form with mutations (each must be refused), a role-less user on
 * every entity × action (refused unless the action is public), and contact-ACL probes through get,
 * getcount, chains and joins by a user who may see and edit only their own contact (the other
 * contact's marker must never come back, and its row must stay as it was).
 */
import { holds, type Permission } from '../../kernel';
import { permissionFor, type EntityRegistry } from '../../plugins/entity-core';
import type { IdentityStore } from '../../plugins/users';
import type { HostileRequest, HostileResponse } from './client';
import { api3Request, api4Request, signJwt, type Fire } from './probes';
import { SITE_KEY, type Service } from './service';

type Obj = Record<string, unknown>;

export const MARKER = 'Zzmarkerqq';

export interface BypassResult {
  attempts: number;
  /** Controls: the unmutated credentials must be accepted, else the refusals above prove nothing. */
  controlsFailed: string[];
  bypasses: Array<{ request: string; detail: string }>;
}

function parse(res: HostileResponse | undefined): Obj | undefined {
  if (!res) return undefined;
  try {
    const v = JSON.parse(res.text);
    return v && typeof v === 'object' ? (v as Obj) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether an answer hands out data: APIv3 `is_error: 0` with a count, or APIv4 rows. */
function gaveData(res: HostileResponse | undefined): boolean {
  const v = parse(res);
  if (!v || !res || res.status >= 300) return false;
  if (Array.isArray(v.values) && v.values.length > 0) return true;
  if (v.is_error === 0 && Number(v.count ?? 0) > 0) return true;
  return false;
}

function succeeded(res: HostileResponse | undefined): boolean {
  const v = parse(res);
  if (!v || !res || res.status >= 300) return false;
  if ('error_message' in v || v.is_error === 1 || 'error_code' in v) return false;
  return true;
}

/** A secret changed so that it is no longer the secret. */
export function mutations(secret: string): string[] {
  const flip = (i: number) => {
    const c = secret[i];
    return secret.slice(0, i) + (c === 'a' ? 'b' : 'a') + secret.slice(i + 1);
  };
  const out = new Set([
    '',
    ' ',
    flip(0),
    flip(Math.floor(secret.length / 2)),
    flip(secret.length - 1),
    secret.slice(0, -1),
    secret + 'x',
    'x' + secret,
    secret.toUpperCase(),
    secret.slice(0, 10),
    secret + '\u0000',
    secret.replace(/./, '\u0000'),
    secret + '%00',
    `${secret},${secret}x`,
    secret.split('').reverse().join(''),
    'null',
    'undefined',
    '*',
    "' OR '1'='1",
  ]);
  out.delete(secret);
  return [...out];
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

export async function runBypass(svc: Service, fire: Fire): Promise<BypassResult> {
  const result: BypassResult = { attempts: 0, bypasses: [], controlsFailed: [] };
  const control = async (req: HostileRequest) => {
    const res = await fire(req);
    if (!gaveData(res)) result.controlsFailed.push(`${req.label}: ${res?.status} ${res?.text.slice(0, 200)}`);
  };
  const refused = async (req: HostileRequest, expect: 'no-data' | 'no-success' = 'no-data') => {
    result.attempts++;
    const res = await fire(req);
    const bad = expect === 'no-data' ? gaveData(res) : succeeded(res);
    if (bad)
      result.bypasses.push({
        request: `${req.label}: ${req.method} ${req.path.slice(0, 160)}`,
        detail: res!.text.slice(0, 200),
      });
    return res;
  };
  const list = { entity: 'Contact', action: 'get', json: JSON.stringify({ sequential: 1, return: ['id'] }) };
  const xrw: [string, string] = ['X-Requested-With', 'XMLHttpRequest'];
  const v4get = (headers: Array<[string, string]>, label: string, path = '/crm/ajax/api4/Contact/get') =>
    ({ method: 'POST', path, headers: [...headers, xrw], binding: 'api4', label }) as HostileRequest;
  const v4authx = (value: string, label: string) =>
    ({
      method: 'POST',
      path: '/crm/ajax/api4/Contact/get',
      headers: [xrw, ['Content-Type', 'application/x-www-form-urlencoded']],
      body: `_authx=${encodeURIComponent(value)}`,
      binding: 'api4',
      label,
    }) as HostileRequest;

  // 1. Credential forms with mutations.
  const session = await loginSession(svc, fire);
  await control(v4get([['X-Crm-Auth', `Bearer ${svc.admin.key}`]], 'control: API key (X-Crm-Auth)'));
  await control(v4get([['Authorization', `Bearer ${svc.admin.key}`]], 'control: API key (Authorization)'));
  await control(v4authx(`Bearer ${svc.admin.key}`, 'control: API key (_authx)'));
  await control(v4get([['Authorization', `Bearer ${svc.jwt}`]], 'control: JWT'));
  await control(
    v4get(
      [['Authorization', `Basic ${Buffer.from(`${svc.admin.username}:${svc.admin.password}`).toString('base64')}`]],
      'control: Basic',
    ),
  );
  for (const ep of ['extern', 'wp'] as const)
    await control(api3Request(ep, svc.admin.key, SITE_KEY, list, `control: key + api_key (${ep})`));
  if (session) await control(v4get([['Cookie', `${session.name}=${session.value}`]], 'control: session cookie'));
  for (const bad of mutations(svc.admin.key)) {
    const oneLine = bad.replace(/[\r\n]/g, '');
    const safeHeader = /^[\t\x20-\x7e]*$/.test(oneLine);
    if (safeHeader) {
      await refused(v4get([['X-Crm-Auth', `Bearer ${oneLine}`]], 'mutated API key (X-Crm-Auth)'));
      await refused(v4get([['Authorization', `Bearer ${oneLine}`]], 'mutated API key (Authorization)'));
    }
    await refused(v4authx(`Bearer ${oneLine}`, 'mutated API key (_authx)'));
    for (const ep of ['extern', 'wp'] as const)
      await refused(api3Request(ep, oneLine, SITE_KEY, list, `mutated api_key (${ep})`));
  }
  for (const bad of mutations(SITE_KEY))
    for (const ep of ['extern', 'wp'] as const)
      await refused(api3Request(ep, svc.admin.key, bad, list, `mutated site key (${ep})`));
  for (const bad of mutations(svc.jwt)) {
    if (!/^[\t\x20-\x7e]*$/.test(bad)) continue;
    await refused(v4get([['Authorization', `Bearer ${bad}`]], 'mutated JWT'));
  }
  const now = Math.floor(Date.now() / 1000);
  const forged = [
    await signJwt(
      { sub: `cid:${svc.admin.contactId}`, scope: 'authx', exp: now + 600 },
      { alg: 'HS256', kid: 'k1' },
      'wrong-secret-wrong-secret-wrong-secret',
    ),
    await signJwt({ sub: `cid:${svc.admin.contactId}`, scope: 'authx', exp: now - 10 }),
    await signJwt({ sub: `cid:${svc.admin.contactId}`, scope: 'other', exp: now + 600 }),
    await signJwt({ sub: `cid:${svc.admin.contactId}`, scope: 'authx' }),
    await signJwt({ sub: `cid:${svc.admin.contactId}`, scope: 'authx', exp: now + 600 }, { alg: 'HS256', kid: 'nope' }),
    `${b64({ alg: 'none', kid: 'k1' })}.${b64({ sub: `cid:${svc.admin.contactId}`, scope: 'authx', exp: now + 600 })}.`,
    // The admin's token with the subject swapped and the signature kept.
    (() => {
      const [header, , sig] = svc.jwt.split('.');
      return `${header}.${b64({ sub: `cid:${svc.admin.contactId}`, scope: 'authx', exp: now + 99999 })}.${sig}`;
    })(),
  ];
  for (const token of forged) await refused(v4get([['Authorization', `Bearer ${token}`]], 'forged JWT'));
  for (const [username, password] of [
    [svc.admin.username, svc.admin.password + 'x'],
    [svc.admin.username, ''],
    [svc.admin.username.toUpperCase(), svc.admin.password.toLowerCase()],
    [`${svc.admin.username}\u0000`, svc.admin.password],
    ['', svc.admin.password],
    [svc.nobody.username, svc.admin.password],
  ]) {
    const basic = Buffer.from(`${username}:${password}`).toString('base64');
    await refused(v4get([['Authorization', `Basic ${basic}`]], 'mutated Basic credential'));
  }
  if (session) {
    for (const bad of mutations(session.value)) {
      if (!/^[\x21-\x7e]*$/.test(bad) || bad.includes(';') || bad.includes(',')) continue;
      await refused(v4get([['Cookie', `${session.name}=${bad}`]], 'mutated session cookie'));
    }
  }

  const credentialAttempts = result.attempts;
  // 2. A role-less user on every entity × action of both versions (the action catalogue).
  const registry = svc.t.kernel.container.resolve<EntityRegistry>('entities');
  const identity = svc.t.kernel.container.resolve<IdentityStore>('identity');
  const user = await svc.t.kernel.db('crm_user').where({ username: svc.nobody.username }).first();
  const perms = await identity.permissionsFor(svc.t.kernel.db, user.id);
  const nobodyV4: Array<[string, string]> = [['X-Crm-Auth', `Bearer ${svc.nobody.key}`], xrw];
  const catalogue = svc.t.kernel.actions.list();
  const entities = new Set(catalogue.map((a) => `${a.version}:${a.entity}`));
  const probe = { id: svc.other.contactId, contact_id: svc.other.contactId, email: 'n@example.org', first_name: 'x' };
  for (const listed of catalogue) {
    const perm =
      typeof listed.permission === 'function'
        ? listed.permission(listed.version === 4 ? { values: probe } : probe, listed.entity)
        : listed.version === 4 && listed.generic
          ? v4Permission(registry, listed.entity, listed.action)
          : listed.permission;
    if (holds(perm, perms)) continue;
    if (listed.version === 4)
      await refused(
        api4Request(
          nobodyV4,
          listed.entity,
          listed.action,
          { values: probe, where: [['id', '>', 0]], records: [probe] },
          `role-less APIv4 ${listed.entity}.${listed.action}`,
        ),
        'no-success',
      );
    else
      await refused(
        api3Request(
          'extern',
          svc.nobody.key,
          SITE_KEY,
          { entity: listed.entity, action: listed.action, json: JSON.stringify(probe) },
          `role-less APIv3 ${listed.entity}.${listed.action}`,
        ),
        'no-success',
      );
  }
  console.log(
    `hostile: bypass: ${credentialAttempts} mutated credentials, ` +
      `${result.attempts - credentialAttempts} role-less calls over ${entities.size} entities of both versions`,
  );
  // 3. Contact ACL: the self-only user never sees the other contact's marker, and cannot change it.
  const selfV4: Array<[string, string]> = [['X-Crm-Auth', `Bearer ${svc.selfie.key}`], xrw];
  const other = svc.other.contactId;
  await control(
    api4Request(selfV4, 'Contact', 'get', { select: ['id'] }, 'control: the self-only user reads their contact'),
  );
  const rowBefore = await svc.t.kernel.db('crm_contact').where({ id: other }).first();
  const emailsBefore = await svc.t.kernel.db('crm_email').where({ contact_id: other }).orderBy('id');
  const sees = async (req: HostileRequest) => {
    result.attempts++;
    const res = await fire(req);
    if (res && res.text.includes(MARKER))
      result.bypasses.push({
        request: `${req.label}: ${req.method} ${req.path.slice(0, 160)}`,
        detail: res.text.slice(0, 200),
      });
  };
  const v3 = (params: Obj, label: string, action = 'get', entity = 'Contact') =>
    (['ajax', 'extern', 'wp'] as const).map((ep) =>
      api3Request(
        ep,
        svc.selfie.key,
        SITE_KEY,
        { entity, action, json: JSON.stringify(params) },
        `ACL ${label} (${ep})`,
      ),
    );
  for (const req of [
    ...v3({}, 'Contact.get'),
    ...v3({ id: other }, 'Contact.get id'),
    ...v3({ first_name: MARKER }, 'Contact.get by name'),
    ...v3({ id: other }, 'Contact.getsingle', 'getsingle'),
    ...v3({ id: other, return: 'first_name' }, 'Contact.getvalue', 'getvalue'),
    ...v3({}, 'Email.get', 'get', 'Email'),
    ...v3({ contact_id: other }, 'Email.get contact_id', 'get', 'Email'),
    ...v3({ 'api.Email.get': { contact_id: other }, 'api.Contact.get': { id: other } }, 'chains'),
    ...v3({ 'api.Contact.get': { id: other, 'api.Email.get': {} } }, 'nested chains', 'get', 'Email'),
    ...v3(
      { return: ['contact_id.first_name', 'contact_id.display_name', 'email'] },
      'Email.get joined names',
      'get',
      'Email',
    ),
    ...v3({ id: other, first_name: 'Mallory' }, 'Contact.create over other', 'create'),
    ...v3({ contact_id: other, email: `${MARKER}2@example.org` }, 'Email.create on other', 'create', 'Email'),
    ...v3({ id: svc.other.emailId }, 'Email.delete other', 'delete', 'Email'),
    api4Request(selfV4, 'Contact', 'get', { select: ['*'] }, 'ACL APIv4 Contact.get'),
    api4Request(selfV4, 'Contact', 'get', { select: ['row_count'] }, 'ACL APIv4 Contact count'),
    api4Request(
      selfV4,
      'Contact',
      'get',
      { where: [['first_name', '=', MARKER]], select: ['row_count', 'first_name'] },
      'ACL APIv4 count by name',
    ),
    api4Request(
      selfV4,
      'Email',
      'get',
      { select: ['email', 'contact_id.first_name', 'contact_id.display_name'] },
      'ACL APIv4 Email implicit join',
    ),
    api4Request(
      selfV4,
      'Email',
      'get',
      { select: ['email'], where: [['contact_id', '=', other]] },
      'ACL APIv4 Email of other',
    ),
    api4Request(
      selfV4,
      'Contact',
      'get',
      { select: ['id', 'e.email'], join: [['Email AS e', 'LEFT', ['e.contact_id', '=', other]]] },
      'ACL APIv4 explicit join',
    ),
    api4Request(
      selfV4,
      'Contact',
      'get',
      { select: ['id'], chain: { o: ['Contact', 'get', { where: [['id', '=', other]] }] } },
      'ACL APIv4 chain',
    ),
    api4Request(
      selfV4,
      'Contact',
      'update',
      { where: [['id', '=', other]], values: { first_name: 'Mallory' } },
      'ACL APIv4 update other',
    ),
    api4Request(
      selfV4,
      'Email',
      'create',
      { values: { contact_id: other, email: `${MARKER}3@example.org` } },
      'ACL APIv4 Email.create on other',
    ),
    api4Request(selfV4, 'Email', 'delete', { where: [['id', '=', svc.other.emailId]] }, 'ACL APIv4 Email.delete other'),
  ])
    await sees(req);
  const row = await svc.t.kernel.db('crm_contact').where({ id: other }).first();
  const emails = await svc.t.kernel.db('crm_email').where({ contact_id: other }).orderBy('id');
  result.attempts++;
  if (JSON.stringify(row) !== JSON.stringify(rowBefore) || JSON.stringify(emails) !== JSON.stringify(emailsBefore))
    result.bypasses.push({
      request: 'ACL writes',
      detail: `other contact changed: ${JSON.stringify({ row, emails })}`,
    });
  return result;
}

/** Mirrors APIv4's rule: the entity's own map, else save = create+update, replace = +delete. */
function v4Permission(registry: EntityRegistry, entity: string, action: string): Permission {
  const own =
    registry.find(entity)?.permissions?.[action.toLowerCase()] ?? registry.find(entity)?.permissions?.[action];
  if (own !== undefined) return own;
  const perm = (name: string) => permissionFor(registry, entity, name);
  switch (action.toLowerCase()) {
    case 'save':
      return { allOf: [perm('create'), perm('update')] };
    case 'replace':
      return { allOf: [perm('create'), perm('update'), perm('delete')] };
    case 'checkaccess':
      return 'public';
    default:
      return perm(action);
  }
}

/** Logs in through the form and returns the session cookie (for the cookie mutations). */
async function loginSession(svc: Service, fire: Fire): Promise<{ name: string; value: string } | undefined> {
  const res = await fire({
    method: 'POST',
    path: '/crm/login',
    headers: [['Content-Type', 'application/x-www-form-urlencoded']],
    body: `username=${encodeURIComponent(svc.admin.username)}&password=${encodeURIComponent(svc.admin.password)}`,
    binding: 'page',
    label: 'setup: login',
  });
  const set = ([] as string[]).concat(res?.headers['set-cookie'] ?? []);
  for (const cookie of set) {
    const match = /^([^=]+)=([^;]+)/.exec(cookie);
    if (match && match[2] && !/pre/i.test(match[1])) {
      svc.secrets.set('admin session cookie', match[2]);
      return { name: match[1], value: match[2] };
    }
  }
  return undefined;
}
