import * as oauth from 'oauth4webapi';
import { definePlugin, KernelError } from '../../kernel';
import { oauthGrants } from '../oauth-client';
import type { GrantHandler } from '../oauth-client';

/** Resource owner password credentials (RFC 6749 §4.3): username and password for tokens. */
export const passwordGrant: GrantHandler = {
  grantType: 'password',
  aliases: ['userPassword'],
  description: 'Resource owner password credentials',
  request(input, tools) {
    const { username, password } = input.params;
    if (typeof username !== 'string' || !username || typeof password !== 'string' || !password) {
      throw new KernelError('E_OAUTH_CLIENT_INVALID', 'OAuth: the password grant needs a username and a password');
    }
    const body: Record<string, string> = { username, password };
    if (input.scopes.length) body.scope = input.scopes.join(input.driver.options(input.client).scopeSeparator ?? ',');
    return tools.send(input, (e) =>
      oauth.genericTokenEndpointRequest(e.as, e.client, e.auth, 'password', body, e.options),
    );
  },
};

export default definePlugin(({ hooks }) => {
  hooks.tap(oauthGrants, () => passwordGrant);
});
