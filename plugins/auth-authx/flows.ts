/**
 * AuthX flow detection, in the reference's order: the X-Crm-Auth header (xheader), then the
 * Authorization header (header; a Basic header is ignored when passwords are not allowed for that
 * flow), then the `_authx` param (read from the query for GET, the body otherwise): `login` on the
 * login path, `auto` with `_authxSes=1`, `param` otherwise. The site key for the `site_key` guard
 * comes from X-Crm-Key or `_authxSiteKey`.
 */
import type { AuthRequest } from '../../host';
import type { CredType, UserMode } from '../users';

export type FlowName = 'param' | 'header' | 'xheader' | 'login' | 'auto';
export type FlowSettings = Record<FlowName, { cred: CredType[]; user: UserMode }>;

export const LOGIN_PATH = '/crm/authx/login';

export interface Detected {
  flow: FlowName;
  credential: string;
  siteKey?: string;
}

export interface HeaderNames {
  auth: string[];
  siteKey: string[];
}

const text = (v: unknown): string =>
  typeof v === 'string' ? v : Array.isArray(v) ? '' : v === undefined || v === null ? '' : String(v);

function headerOf(req: AuthRequest, names: string[]): string | undefined {
  for (const n of names) {
    const v = req.headers[n];
    if (v !== undefined) return text(v);
  }
  return undefined;
}

/** The request's own parameter, GET from the query and otherwise from the body (as PHP's $_GET / $_POST). */
function paramOf(req: AuthRequest, name: string): unknown {
  return req.method === 'GET' || req.method === 'HEAD' ? req.query[name] : req.body[name];
}

export function detectFlow(req: AuthRequest, flows: FlowSettings, names: HeaderNames): Detected | undefined {
  const siteKey =
    headerOf(req, names.siteKey) ??
    (paramOf(req, '_authxSiteKey') === undefined ? undefined : text(paramOf(req, '_authxSiteKey')));
  const authHeader = headerOf(req, names.auth);
  if (authHeader !== undefined) return { flow: 'xheader', credential: authHeader, siteKey };
  const authorization = headerOf(req, ['authorization']);
  if (authorization !== undefined && flows.header.cred.length) {
    const scheme = authorization.split(' ', 1)[0];
    // An improvised firewall (web server Basic auth) must not lock everyone out: ignore it.
    const ignored = (scheme === 'Basic' || scheme === 'Digest') && !flows.header.cred.includes('pass');
    if (!ignored) return { flow: 'header', credential: authorization, siteKey };
  }
  const param = paramOf(req, '_authx');
  if (param === undefined) return undefined;
  const flow: FlowName = req.path === LOGIN_PATH ? 'login' : text(paramOf(req, '_authxSes')) === '1' ? 'auto' : 'param';
  return { flow, credential: text(param), siteKey };
}
