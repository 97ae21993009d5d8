/**
 * `key` (site key) + `api_key` on routes that accept `legacy-keys`. Each end-point refuses in its
 * own wire format (reference §2.3, §5.1):
 * - crm/ajax/rest (`ajaxPaths`): the AuthX `legacyrest` flow; acts when `key` or `api_key` is given;
 *   refusal HTTP 200 text/javascript `{"error_message":"FATAL: <reason>","is_error":1}`;
 * - WordPress (`wpPaths`): HTTP 401 WP_Error JSON, `Param api_key is not valid.` then `Param key is not valid.`;
 * - extern/rest.php (any other route): a rejection without response, which the binding renders
 *   as `{"error_message":…,"is_error":1}` (JSON or XML).
 */
import { definePlugin, type Kernel } from '../../kernel';
import { authCredential, type AuthRequest, type CredentialResult, type RawResponse } from '../../host';
import { THROTTLED, type Authenticator, type CredType, type UserMode } from '../users';
import type { IdentityStore } from '../users';
import type { Throttle } from '../users';
import { ROLE_PERMISSIONS } from '../users';

interface LegacyOptions {
  ajaxPaths: string[];
  wpPaths: string[];
  legacyrest: { cred: CredType[]; user: UserMode };
}

/** POST wins over GET (PHP's $_REQUEST order); only a plain string counts. */
function param(req: AuthRequest, name: string): string {
  const v = req.body[name] !== undefined ? req.body[name] : req.query[name];
  return typeof v === 'string' ? v : '';
}

const legacyRestRefusal = (reason: string): RawResponse => ({
  status: 200,
  type: 'text/javascript',
  body: JSON.stringify({ error_message: `FATAL: ${reason}`, is_error: 1 }),
});

/** WordPress's error shape; the code follows the route's spelling (`crm_…`, or `civicrm_…` on the compat route). */
const wpRefusal = (req: AuthRequest, message: string, retryAfter?: number): RawResponse => ({
  status: 401,
  type: 'application/json',
  body: JSON.stringify({
    code: `${req.path.startsWith('/wp-json/civicrm/') ? 'civicrm' : 'crm'}_rest_api_error`,
    message,
    data: { status: 401 },
  }),
  ...(retryAfter ? { headers: { 'Retry-After': String(retryAfter) } } : {}),
});

export default definePlugin<LegacyOptions>(({ config, hooks, services }) => {
  const deps = () => ({
    db: services.resolve<Kernel['db']>('db'),
    authenticator: services.resolve<Authenticator>('authenticator'),
    identity: services.resolve<IdentityStore>('identity'),
    throttle: services.resolve<Throttle>('loginThrottle'),
  });
  const under = (path: string, prefixes: string[]) =>
    prefixes.some((p) => path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`));

  /** The active user behind an api_key (legacy end-points need a user), counting failures per address. */
  async function userForKey(req: AuthRequest, apiKey: string) {
    const { db, identity, throttle } = deps();
    const contactId = apiKey && apiKey !== 'null' ? await identity.contactForApiKey(db, apiKey) : null;
    const user = contactId === null ? undefined : await identity.findUserByContact(db, contactId);
    if (!user?.is_active) {
      if (contactId === null) await throttle.fail(db, [{ ip: req.ip }]);
      return undefined;
    }
    return user;
  }

  async function legacyRest(req: AuthRequest, apiKey: string, siteKey: string): Promise<CredentialResult> {
    const { db, authenticator } = deps();
    const outcome = await authenticator.authenticate(db, {
      flow: 'legacyrest',
      credential: `Bearer ${apiKey}`,
      siteKey,
      ip: req.ip,
      policy: { ...config.legacyrest, guards: ['site_key'] },
    });
    const refuse = (reason: string): CredentialResult => ({
      reject: `FATAL: ${reason}`,
      response: legacyRestRefusal(reason),
    });
    if ('reject' in outcome) return refuse(outcome.reject);
    // Both keys are required here, whatever the credential (a JWT passes AuthX guards by itself).
    if (!authenticator.siteKeyMatches(siteKey)) return refuse('Login not permitted. Must satisfy guard (site_key).');
    const { contactId, userId, cred, permissions } = outcome.ok;
    return {
      accept: {
        contactId,
        userId,
        via: cred,
        flow: 'legacyrest',
        permissions: new Set(['access AJAX API']),
        attributes: { cred, ...(permissions ? { [ROLE_PERMISSIONS]: permissions } : {}) },
      },
    };
  }

  hooks.tap(authCredential, async (req) => {
    if (!req.accepts.includes('legacy-keys')) return undefined;
    const apiKey = param(req, 'api_key').trim();
    const siteKey = param(req, 'key').trim();
    const { db, authenticator, throttle } = deps();

    if (under(req.path, config.ajaxPaths)) {
      if (!apiKey && !siteKey) return undefined;
      return legacyRest(req, apiKey, siteKey);
    }

    const wait = await throttle.retryAfter(db, [{ ip: req.ip }]);
    if (under(req.path, config.wpPaths)) {
      if (wait) return { reject: THROTTLED, response: wpRefusal(req, THROTTLED, wait) };
      const user = await userForKey(req, apiKey);
      if (!user)
        return { reject: 'Param api_key is not valid.', response: wpRefusal(req, 'Param api_key is not valid.') };
      if (!authenticator.siteKeyMatches(siteKey)) {
        await throttle.fail(db, [{ ip: req.ip }]);
        return { reject: 'Param key is not valid.', response: wpRefusal(req, 'Param key is not valid.') };
      }
      return {
        accept: {
          contactId: user.contact_id,
          userId: user.id,
          via: 'api_key',
          flow: 'legacy',
          attributes: { cred: 'api_key' },
        },
      };
    }

    // extern/rest.php: the binding renders the message in its own format.
    if (wait) return { reject: THROTTLED };
    if (!authenticator.siteKeyMatches(siteKey)) {
      await throttle.fail(db, [{ ip: req.ip }]);
      return { reject: 'Failed to authenticate key' };
    }
    if (!apiKey || apiKey === 'null') return { reject: "FATAL: mandatory param 'api_key' (user key) missing" };
    const user = await userForKey(req, apiKey);
    if (!user) return { reject: 'ERROR: No CMS user associated with given api-key' };
    return {
      accept: {
        contactId: user.contact_id,
        userId: user.id,
        via: 'api_key',
        flow: 'legacy',
        attributes: { cred: 'api_key' },
      },
    };
  });
});
