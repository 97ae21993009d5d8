/** Small shared helpers of oauth-client. */
import type { AjvFlavor } from '../../kernel';
export { KernelError, isKernelError } from '../../kernel';

/** Provider files: strict, every error at once, no coercion (a provider file must say what it means). */
export const PROVIDERS_FLAVOR: AjvFlavor = { options: { allErrors: true, strict: true, coerceTypes: false } };

/** `{{tenant}}` becomes the client's tenant, or `common` when it has none (reference §1.3). */
export function replaceTenant(url: string, tenant: string | null | undefined): string {
  return url.split('{{tenant}}').join(encodeURIComponent(tenant && tenant.trim() ? tenant.trim() : 'common'));
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function isLoopback(url: URL): boolean {
  return LOOPBACK.has(url.hostname) || /^127\./.test(url.hostname);
}

/** Keeps third-party text short and on one line before it goes into an error message. */
export function clip(text: unknown, max = 300): string {
  const s = String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
