/**
 * Talking to a provider's token endpoint: which URLs may receive credentials, how a transport failure
 * is reported (unreachable vs invalid answer), and how an answer becomes a token response or a clear
 * error (the provider's `error` / `error_description`, clipped, never a secret).
 */
import * as oauth from 'oauth4webapi';
import type { Endpoint, TokenResponse } from './types';
import { clip, isKernelError, isLoopback, KernelError } from './util';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Runs a token request and checks its answer (oauth4webapi checks the shape). */
export async function tokenEndpointAnswer(
  name: string,
  endpoint: Endpoint,
  perform: (endpoint: Endpoint) => Promise<Response>,
  timeoutMs: number,
): Promise<TokenResponse> {
  let status: number;
  let body: unknown;
  try {
    const res = await perform(endpoint);
    status = res.status;
    const text = await res.text();
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  } catch (err) {
    throw transportError(name, err, timeoutMs);
  }
  if (status < 200 || status >= 300 || (isObject(body) && typeof body.error === 'string')) {
    const error = isObject(body) && typeof body.error === 'string' ? clip(body.error, 100) : `http_${status}`;
    const description =
      isObject(body) && typeof body.error_description === 'string' ? clip(body.error_description) : undefined;
    throw new KernelError(
      'E_OAUTH_PROVIDER_ERROR',
      `OAuth provider ${name} refused the request: ${error}${description ? ` (${description})` : ''}`,
      {
        details: { provider: name, error, error_description: description ?? null, status },
      },
    );
  }
  if (!isObject(body)) {
    throw new KernelError(
      'E_OAUTH_RESPONSE_INVALID',
      `OAuth provider ${name} answered the token request with something that is not a JSON object (HTTP ${status})`,
      { details: { provider: name, status } },
    );
  }
  // oauth4webapi checks the answer's shape (access_token, token_type, expires_in…). The id_token is
  // left out here because jose verifies it against the provider's JWKS (oauth4webapi would demand a
  // single issuer, which multi-tenant providers do not have).
  const { id_token: _idToken, ...rest } = body;
  try {
    await oauth.processGenericTokenEndpointResponse(
      endpoint.as,
      endpoint.client,
      new Response(JSON.stringify(rest), { status: 200, headers: { 'content-type': 'application/json' } }),
    );
  } catch (err) {
    throw new KernelError(
      'E_OAUTH_RESPONSE_INVALID',
      `OAuth provider ${name} sent an invalid token response: ${clip((err as Error).message, 200)}`,
      { details: { provider: name } },
    );
  }
  return body as TokenResponse;
}

/** A provider URL we may send credentials to: https, or http on loopback (or when allowed by config). */
export function checkedProviderUrl(raw: string, provider: string, what: string, allowInsecureHttp: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new KernelError('E_OAUTH_PROVIDER_INVALID', `OAuth provider ${provider} has an invalid ${what} URL`, {
      details: { provider },
    });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new KernelError(
      'E_OAUTH_PROVIDER_INVALID',
      `OAuth provider ${provider} has a ${what} URL that is not http(s)`,
      { details: { provider } },
    );
  }
  if (url.protocol === 'http:' && !isLoopback(url) && !allowInsecureHttp) {
    throw new KernelError(
      'E_OAUTH_INSECURE',
      `Refusing to send OAuth credentials to ${provider}'s ${what} URL over plain HTTP`,
      { details: { provider } },
    );
  }
  return url;
}

export function transportError(provider: string, err: unknown, timeoutMs: number): KernelError {
  if (isKernelError(err)) return err;
  const failure = err as Error & { cause?: { code?: string } };
  const timeout = failure?.name === 'TimeoutError' || failure?.name === 'AbortError';
  const reason = timeout ? 'timeout' : (failure?.cause?.code ?? failure?.name ?? 'error');
  // undici reports network failures as TypeError('fetch failed') with the socket error as cause.
  const network = failure instanceof TypeError && (failure.message === 'fetch failed' || failure.cause !== undefined);
  if (timeout || network) {
    return new KernelError(
      'E_OAUTH_UNREACHABLE',
      `OAuth provider ${provider} could not be reached (${timeout ? `no answer within ${timeoutMs} ms` : reason})`,
      {
        details: { provider, reason },
      },
    );
  }
  return new KernelError(
    'E_OAUTH_RESPONSE_INVALID',
    `OAuth provider ${provider}: the token request failed (${clip(failure?.message, 200)})`,
    { details: { provider, reason } },
  );
}
