/**
 * First run: when the database holds no user, create an administrator (contact, user, API key)
 * and print, once, how to call the API. The output goes to stdout, never to the logger, and is
 * never repeated: a second instance waits on the same advisory lock and finds the user.
 */
import type { Knex } from 'knex';
import { randomToken } from './crypto';
import type { Keyring } from './keyring';
import type { IdentityStore } from './store';

export interface FirstRunResult {
  username: string;
  password: string;
  contactId: number;
  apiKey: string;
}

export async function firstRun(
  db: Knex,
  store: IdentityStore,
  keyring: Keyring,
  baseUrl: string,
  write: (text: string) => void,
): Promise<FirstRunResult | null> {
  // Once a user exists a start needs one read; the check under the lock below is the one that decides.
  if ((await store.countUsers(db)) > 0) return null;
  const result = await db.transaction(async (trx) => {
    await trx.raw("select pg_advisory_xact_lock(hashtext('crm.users.first-run'))");
    if ((await store.countUsers(trx)) > 0) return null;
    const password = randomToken(12);
    const user = await store.createUser(trx, { username: 'admin', password, roles: ['administrator'] });
    const { key } = await store.createApiKey(trx, user.contact_id, 'first run');
    return { username: user.username, password, contactId: user.contact_id, apiKey: key };
  });
  if (result) write(firstRunMessage(result, keyring.siteKey, baseUrl));
  return result;
}

export function firstRunMessage(result: FirstRunResult, siteKey: string, baseUrl: string): string {
  const url = `${baseUrl.replace(/\/$/, '')}/crm/ajax/rest`;
  return [
    '',
    '================================================================================',
    ' First run: an administrator was created. This is shown ONCE; store it now.',
    '================================================================================',
    `  username   ${result.username}`,
    `  password   ${result.password}`,
    `  contact    ${result.contactId}`,
    `  API key    ${result.apiKey}`,
    `  site key   ${siteKey}`,
    '',
    `  In a browser: open ${baseUrl.replace(/\/$/, '')}/ and log in (API Explorer, OAuth administration).`,
    '',
    '  Try the API:',
    `  curl -s '${url}' \\`,
    `    -H 'X-Crm-Auth: Bearer ${result.apiKey}' \\`,
    "    -H 'X-Requested-With: XMLHttpRequest' \\",
    "    --data-urlencode 'entity=System' --data-urlencode 'action=get' --data-urlencode 'json={\"version\":3}'",
    '',
    '  More keys and users: node bin/crm.mjs key create --user admin | user add <name>',
    '  (see docs/authentication.md)',
    '================================================================================',
    '',
  ].join('\n');
}
