/**
 * The optional webhook for OAuth refresh events: a JSON POST to `pluginConfig.jobs.webhookUrl`, signed
 * with HMAC-SHA256 over the body with `webhookSecret` (`X-CRM-Signature: sha256=<hex>`), with the event
 * name in `X-CRM-Event`. A delivery failure is logged (never the secret) and does not fail the job.
 */
import { createHmac } from 'node:crypto';
import type { Logger } from '../../kernel';

export interface WebhookOptions {
  url: string;
  secret?: string;
  timeoutMs: number;
}

export function signature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export async function deliver(opts: WebhookOptions, event: string, payload: object, log: Logger): Promise<boolean> {
  const body = JSON.stringify({ event, time: new Date().toISOString(), ...payload });
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-crm-event': event };
  if (opts.secret) headers['x-crm-signature'] = signature(opts.secret, body);
  try {
    const res = await fetch(opts.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(opts.timeoutMs) });
    if (res.ok) return true;
    log.warn({ event, status: res.status }, 'webhook refused the event');
  } catch (err) {
    log.warn({ event, err: err instanceof Error ? err.message : String(err) }, 'webhook could not be reached');
  }
  return false;
}
