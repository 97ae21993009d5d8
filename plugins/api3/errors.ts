/** APIv3 error helpers: KernelErrors whose `details` carry the wire extras in order, then `error_code`. */
import { KernelError, isKernelError, registerErrorCodes } from '../../kernel';
import { dbError } from '../entity-core';
import { controlParamError } from './control-params';

registerErrorCodes('api3', {
  E_API3_CHAINED: {
    status: 400,
    expose: true,
    meaning: 'APIv3: a chained call failed (error_code chained_api_failed)',
  },
  E_API3_RETURNED: {
    status: 400,
    expose: true,
    meaning: 'APIv3: an error the reference returns rather than throws (getsingle/getvalue "Expected one …")',
  },
  E_API3_DUPLICATE: { status: 409, expose: true, meaning: 'APIv3: a matching record exists (error_code duplicate)' },
});

/** Kernel code → APIv3 error_code, for errors that carry none. */
const byKernelCode: Record<string, string | number> = {
  E_FORBIDDEN: 'unauthorized',
  E_UNAUTHENTICATED: 'unauthorized',
  E_ACTION_NOT_FOUND: 'not-found',
};

/**
 * An APIv3 error. `extras` are the keys shown before `error_code` on the wire (`fields`, `error_field`, …).
 * @example throw api3Error('E_INVALID_PARAMS', 'mandatory_missing', 'Mandatory key(s) missing from params array: id', { fields: ['id'] })
 */
export function api3Error(
  code: string,
  errorCode: string | number,
  message: string,
  extras: Record<string, unknown> = {},
): KernelError {
  return new KernelError(code, message, { details: { ...extras, error_code: errorCode } });
}

/** Shorthand for the ubiquitous "bad input" error with error_code 0 unless given. */
export function invalid(
  message: string,
  errorCode: string | number = 0,
  extras: Record<string, unknown> = {},
): KernelError {
  return api3Error('E_INVALID_PARAMS', errorCode, message, extras);
}

export function mandatoryMissing(fields: string[], message?: string): KernelError {
  return api3Error(
    'E_INVALID_PARAMS',
    'mandatory_missing',
    message ?? `Mandatory key(s) missing from params array: ${fields.join(', ')}`,
    { fields },
  );
}

/** An error the reference returns (not throws): rendered with `count` etc. but no error_code/entity/action. */
export function returnedError(message: string, extras: Record<string, unknown> = {}): KernelError {
  return new KernelError('E_API3_RETURNED', message, { details: { ...extras, api3Shape: 'returned' } });
}

/** Makes sure an error thrown out of the engine has `details.error_code`, `entity` and `action` (wire order). */
export function toApi3Error(err: unknown, entity: string, action: string): KernelError {
  // Database errors that escaped a store call (lifecycle code) must not show SQL text.
  const fromDb =
    !isKernelError(err) || err.code === 'E_INTERNAL' || err.code === 'E_PLUGIN_FAILED' ? dbError(err) : undefined;
  const error =
    fromDb ??
    (isKernelError(err)
      ? (controlParamError(err) ?? err)
      : new KernelError('E_INTERNAL', (err as Error)?.message ?? String(err), { cause: err }));
  const details = error.details ?? {};
  if (details.api3Shape === 'returned') return error;
  if ('error_code' in details && 'entity' in details) return error;
  const { error_code, entity: _e, action: _a, ...extras } = details as Record<string, unknown>;
  // E_INVALID_PARAMS from the kernel's schema validation carries `problems`; keep them as extras.
  const code = error_code ?? byKernelCode[error.code] ?? 0;
  const out = new KernelError(error.code, error.message, {
    details: { ...extras, error_code: code, entity: details.entity ?? entity, action: details.action ?? action },
    cause: (error as Error).cause ?? error,
    plugin: error.plugin,
    status: error.status,
    response: error.response,
  });
  return out;
}
