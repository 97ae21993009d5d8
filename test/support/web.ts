/**
 * Shared set-up for the page tests: a default-set kernel with users who log in with a password
 * (`staff`: access CRM; `oauthadmin`: also manage OAuth client; `nobody`: no permissions), and a
 * helper that logs a supertest agent in through the login form, CSRF token included.
 */
import { expect } from 'chai';
import type supertest from 'supertest';
import type { TestKernel } from '../../host/testing';
import type { IdentityStore } from '../../plugins/users';

export const WEB_PASSWORD = 'page-tests-password-42';

export async function seedWebUsers(testKernel: TestKernel): Promise<Record<string, number>> {
  const identity = testKernel.kernel.container.resolve<IdentityStore>('identity');
  const db = testKernel.kernel.db;
  const contacts: Record<string, number> = {};
  const roles: Record<string, string[]> = {
    staff: ['access CRM', 'view all contacts', 'edit all contacts', 'add contacts'],
    oauthadmin: ['access CRM', 'view all contacts', 'manage OAuth client', 'create OAuth tokens via auth code flow'],
    nobody: [],
  };
  for (const [name, permissions] of Object.entries(roles)) {
    await identity.ensureRole(db, `web_${name}`);
    await identity.grantPermissions(db, `web_${name}`, ['authenticate with password', ...permissions]);
    const user = await identity.createUser(db, { username: name, password: WEB_PASSWORD, roles: [`web_${name}`] });
    contacts[name] = user.contact_id;
  }
  return contacts;
}

/** The value of a hidden input named `name` in an HTML page. */
export function hiddenValue(html: string, name: string): string {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(html);
  expect(match, `no hidden ${name} input`).to.not.equal(null);
  return match![1];
}

/** Logs an agent (which keeps cookies) in through the login page, as a browser does. */
export async function loginAgent(agent: supertest.Agent, username: string): Promise<void> {
  const form = await agent.get('/crm/login');
  const csrf = hiddenValue(form.text, 'csrf');
  const res = await agent
    .post('/crm/login')
    .type('form')
    .send({ username, password: WEB_PASSWORD, csrf, destination: '/' });
  expect(res.status, res.text).to.equal(303);
}
