/**
 * What the APIv3 REST handlers share: their options, the output formats collected at ready, the
 * end-points' auth methods and wording, and how a value is sent in the format the request asked for.
 */
import type { Context } from 'koa';
import type { Logger } from '../../kernel';
import { type Renderer } from '../../host';
import { phpEmpty } from './php-params';
import { readRequest, wantsJson } from './request';

export interface RestApi3Options {
  /** Enforce the X-Requested-With guard on the ajax route (the reference skips it in debug mode). */
  csrfGuard: boolean;
  /** Prefix of the legacy `<prefix>/extern/rest.php` end-point. */
  externPrefix: string;
  /**
   * Have PostgreSQL write each value of a compact JSON `get` in its wire form (ADR 0017). Off by default: on a
   * machine where the database shares the service's cores it costs more than it saves.
   */
  rowsFromDatabase: boolean;
}

/** What the handlers share: options and the output formats collected at ready. */
export interface RestApi3Binding {
  readonly options: RestApi3Options;
  readonly renderers: Map<string, Renderer>;
  readonly log: Logger;
}

export type Endpoint = 'ajax' | 'extern' | 'wp';

/** Auth methods per end-point (reference §1.1 compatibility table). */
export const ENDPOINT_AUTH: Record<Endpoint, string[]> = {
  ajax: ['authx', 'legacy-keys', 'session'],
  extern: ['legacy-keys'],
  wp: ['legacy-keys'],
};

export const MESSAGES = {
  missing: 'missing mandatory params "entity=" or "action="',
  decode: '{"is_error":1,"0":"error_message","1":"Unable to decode supplied JSON."}',
  csrf: 'SECURITY ALERT: Ajax requests can only be issued by javascript clients, eg. CRM.api3().',
  destructiveGet: 'SECURITY: All requests that modify the database must be http POST, not GET.',
  malformed: 'ERROR: Malformed REST path',
  noKey: 'Failed to authenticate key',
  xmlDisabled: 'XML output is not enabled on this server. Send json=1 (or json={…params…}) to get JSON.',
  menu: 'You do not have permission to access this resource (requires access CRM or access AJAX API).',
};

export interface Format {
  json: boolean;
  pretty: boolean;
  flavour: 'core' | 'wp';
}

export function formatOf(ctx: Context, endpoint: Endpoint): Format {
  const { merged } = readRequest(ctx, { jsonBody: endpoint === 'wp' });
  const flavour = endpoint === 'wp' ? 'wp' : 'core';
  const pretty = flavour === 'core' && !phpEmpty(merged.prettyprint);
  return { json: wantsJson(merged, flavour), pretty, flavour };
}

export function send(binding: RestApi3Binding, ctx: Context, value: unknown, fmt: Format, status = 200): void {
  if (!fmt.json) {
    const xml = binding.renderers.get('xml');
    if (xml) {
      ctx.status = status;
      ctx.type = xml.mediaType;
      ctx.body = xml.render(value, { flavour: fmt.flavour });
      return;
    }
    return sendXmlDisabled(binding, ctx);
  }
  ctx.status = status;
  ctx.type = 'application/json';
  const json = binding.renderers.get('json');
  ctx.body = json ? json.render(value, { prettyprint: fmt.pretty }) : JSON.stringify(value);
}

/** XML asked for but the format-xml plugin is not enabled: a JSON envelope with HTTP 406. */
export function sendXmlDisabled(binding: RestApi3Binding, ctx: Context): void {
  send(
    binding,
    ctx,
    { error_code: 'xml_not_enabled', is_error: 1, error_message: MESSAGES.xmlDisabled },
    { json: true, pretty: false, flavour: 'core' },
    406,
  );
}

/** The reference's malformed decode error: positional keys, always JSON, HTTP 200. */
export function sendDecodeError(ctx: Context): void {
  ctx.status = 200;
  ctx.type = 'application/json';
  ctx.body = MESSAGES.decode;
}
