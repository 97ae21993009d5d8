import * as oauth from 'oauth4webapi';
import { definePlugin } from '../../kernel';
import { oauthGrants } from '../oauth-client';
import type { GrantHandler } from '../oauth-client';

/** Client credentials (RFC 6749 §4.4): the client's own tokens, no user. */
export const clientCredentialsGrant: GrantHandler = {
  grantType: 'client_credentials',
  aliases: ['clientCredential', 'clientCredentials'],
  description: 'Client credentials',
  request(input, tools) {
    const body: Record<string, string> = {};
    if (input.scopes.length) body.scope = input.scopes.join(input.driver.options(input.client).scopeSeparator ?? ',');
    return tools.send(input, (e) => oauth.clientCredentialsGrantRequest(e.as, e.client, e.auth, body, e.options));
  },
};

export default definePlugin(({ hooks }) => {
  hooks.tap(oauthGrants, () => clientCredentialsGrant);
});
