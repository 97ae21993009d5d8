/** The authorization code grant: URL with PKCE S256 (and state), then the code exchange through oauth4webapi. */
import { randomInt } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { KernelError } from '../../kernel';
import type { GrantHandler } from '../oauth-client';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `CC_` + 29 random letters and digits, the reference's state id format. */
export function newStateId(): string {
  let s = 'CC_';
  for (let i = 0; i < 29; i++) s += ALNUM[randomInt(ALNUM.length)];
  return s;
}

export const authorizationCodeGrant: GrantHandler = {
  grantType: 'authorization_code',
  aliases: ['authorizationCode'],
  description: 'Authorization code with PKCE S256',

  async authorize(input, tools) {
    const { driver, client, scopes, params } = input;
    const options = driver.options(client);
    const responseMode = typeof params.responseMode === 'string' && params.responseMode ? params.responseMode : 'query';
    if (!(options.responseModes ?? ['query']).includes(responseMode)) {
      throw new KernelError('E_OAUTH_CLIENT_INVALID', `Unsupported response mode: ${responseMode}`, {
        details: { responseMode },
      });
    }
    const redirectUri = tools.redirectUri(input);
    const state = typeof params.state === 'string' && params.state ? params.state : newStateId();
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const url = new URL(driver.authorizeUrl(client));
    const query = url.searchParams;
    query.set('response_type', 'code');
    query.set('client_id', client.guid);
    query.set('redirect_uri', redirectUri);
    if (scopes.length) query.set('scope', scopes.join(options.scopeSeparator ?? ','));
    query.set('state', state);
    query.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
    query.set('code_challenge_method', 'S256');
    const prompt = typeof params.prompt === 'string' && params.prompt ? params.prompt : null;
    for (const [k, value] of Object.entries(driver.authorizationParams(client, { prompt }))) query.set(k, value);
    if (responseMode !== 'query') query.set('response_mode', responseMode);
    return { url: url.href, state, codeVerifier, redirectUri, scopes: [...scopes] };
  },

  async request(input, tools) {
    const { code, codeVerifier } = input.params;
    if (typeof code !== 'string' || !code)
      throw new KernelError('E_OAUTH_CLIENT_INVALID', 'OAuth: the authorization code is missing');
    if (codeVerifier !== undefined && codeVerifier !== null && typeof codeVerifier !== 'string') {
      throw new KernelError('E_OAUTH_CLIENT_INVALID', 'OAuth: the PKCE code verifier must be a string');
    }
    const redirectUri = tools.redirectUri(input);
    return tools.send(input, (e) => {
      // oauth4webapi only exchanges callback parameters it has checked itself; the state was checked by the caller.
      const callback = oauth.validateAuthResponse(e.as, e.client, new URLSearchParams({ code }), oauth.expectNoState);
      return oauth.authorizationCodeGrantRequest(
        e.as,
        e.client,
        e.auth,
        callback,
        redirectUri,
        codeVerifier || oauth.nopkce,
        e.options,
      );
    });
  },
};
