/**
 * One error class and one code table for the whole service.
 *
 * The kernel owns the generic codes below; a plugin adds its own codes (under its own prefix) with
 * {@link registerErrorCodes}. Bindings map a code to their wire format (APIv3: HTTP 200 + `is_error`,
 * APIv4: a status), so handlers never set statuses themselves.
 */

export interface ErrorCodeInfo {
  /** HTTP status a binding should use when it has no wire-specific rule; 0 = boot-time only. */
  status: number;
  /** Whether the message may be shown to an API caller (Koa's `expose` convention). */
  expose: boolean;
  /** One line for docs/errors.md. */
  meaning: string;
  /** Plugin that declared the code; `kernel` for the table below. */
  owner?: string;
}

const table = new Map<string, ErrorCodeInfo>();

/** The kernel's own codes. */
export const kernelErrorCodes = {
  E_MANIFEST_INVALID: { status: 0, expose: false, meaning: 'A plugin manifest or its config failed validation' },
  E_PLUGIN_UNKNOWN: { status: 0, expose: false, meaning: 'The config enables a plugin that is not installed' },
  E_PLUGIN_DEPENDENCY: { status: 0, expose: false, meaning: 'A plugin needs another plugin that is not enabled' },
  E_PLUGIN_CYCLE: {
    status: 0,
    expose: false,
    meaning: 'Plugin dependencies form a cycle (the message shows its path)',
  },
  E_PLUGIN_TIMEOUT: { status: 0, expose: false, meaning: 'A plugin took too long to register, get ready or close' },
  E_KERNEL_RANGE: { status: 0, expose: false, meaning: "A plugin does not support this kernel's version" },
  E_BOOT: { status: 0, expose: false, meaning: 'The service could not start (several problems are listed at once)' },
  E_CONFIG_INVALID: { status: 0, expose: false, meaning: 'The configuration failed validation (names the key path)' },
  E_DATABASE: { status: 503, expose: false, meaning: 'The database could not be reached or refused a statement' },
  E_SECRET_KEY: {
    status: 500,
    expose: false,
    meaning:
      'A stored secret cannot be decrypted: its key is not configured, or the key with that id is a different one',
  },
  E_ACTION_DUPLICATE: { status: 0, expose: false, meaning: 'Two plugins define the same entity/action' },
  E_HOOK_KIND: { status: 0, expose: false, meaning: 'A hook was tapped or run with the wrong kind of function' },
  E_HOOK_DUPLICATE: { status: 0, expose: false, meaning: 'Two keyed contributions (route, format, grant) share a key' },
  E_REGISTRY_SEALED: { status: 0, expose: false, meaning: 'Something was registered after boot sealed the registries' },
  E_SERVICE_UNDECLARED: {
    status: 0,
    expose: false,
    meaning: 'A plugin registered a service it did not list in provides.services',
  },
  E_ACTION_NOT_FOUND: { status: 404, expose: true, meaning: 'No such entity/action' },
  E_UNAUTHENTICATED: {
    status: 401,
    expose: true,
    meaning: 'A credential was refused, or the action needs a logged-in caller',
  },
  E_FORBIDDEN: { status: 403, expose: true, meaning: 'The caller lacks the permission the action needs' },
  E_INVALID_PARAMS: {
    status: 400,
    expose: true,
    meaning: 'The params failed validation (`details` lists the problems)',
  },
  E_NOT_FOUND: { status: 404, expose: true, meaning: 'The record asked for does not exist' },
  E_CONFLICT: {
    status: 409,
    expose: true,
    meaning: 'The write conflicts with stored data (a unique value, a reference)',
  },
  E_NOT_ACCEPTABLE: { status: 406, expose: true, meaning: 'No enabled output format matches the request' },
  E_BAD_REQUEST: {
    status: 400,
    expose: true,
    meaning: 'The HTTP request itself is malformed (body, encoding, method)',
  },
  E_LIMIT_EXCEEDED: {
    status: 400,
    expose: true,
    meaning:
      'The request asks for more than a configured limit allows (chained calls, IN list, nesting, rows, statement time)',
  },
  E_PLUGIN_FAILED: {
    status: 500,
    expose: false,
    meaning: 'A plugin threw an unexpected error (hidden from callers, logged with the plugin name)',
  },
  E_INTERNAL: { status: 500, expose: false, meaning: 'An unexpected error (hidden from callers, logged)' },
} as const satisfies Record<string, ErrorCodeInfo>;

export type KernelErrorCode = keyof typeof kernelErrorCodes;

for (const [code, info] of Object.entries(kernelErrorCodes)) table.set(code, { ...info, owner: 'kernel' });

/**
 * Adds a plugin's error codes to the table (shown in docs/errors.md).
 * @example registerErrorCodes('oauth-client', { E_OAUTH_STATE: { status: 400, expose: true, meaning: '…' } })
 */
export function registerErrorCodes(owner: string, codes: Record<string, Omit<ErrorCodeInfo, 'owner'>>): void {
  for (const [code, info] of Object.entries(codes)) {
    const existing = table.get(code);
    if (existing && existing.owner !== owner) {
      throw new KernelError(
        'E_HOOK_DUPLICATE',
        `Error code ${code} is declared by both ${existing.owner} and ${owner}`,
      );
    }
    table.set(code, { ...info, owner });
  }
}

/** Every known code, for docs and bindings. */
export function errorCodes(): ReadonlyMap<string, ErrorCodeInfo> {
  return table;
}

export interface KernelErrorOptions {
  /** Structured extra data; bindings may put it on the wire (e.g. APIv3's `fields`). */
  details?: Record<string, unknown>;
  /** Plugin the error is attributed to. */
  plugin?: string;
  cause?: unknown;
  /** Override the table's status (rarely needed). */
  status?: number;
  /** An exact HTTP answer that must be sent whatever the route's format (e.g. AuthX's `HTTP 401 …` text). */
  response?: { status: number; type: string; body: string; headers?: Record<string, string> };
}

/**
 * The one error type the service throws on purpose.
 * @example
 * throw new KernelError('E_INVALID_PARAMS', 'Mandatory key(s) missing from params array: contact_type', {
 *   details: { fields: ['contact_type'] },
 * });
 */
export class KernelError extends Error {
  readonly code: string;
  readonly status: number;
  readonly expose: boolean;
  readonly details?: Record<string, unknown>;
  readonly response?: KernelErrorOptions['response'];
  plugin?: string;

  constructor(code: KernelErrorCode | (string & {}), message: string, opts: KernelErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    const info = table.get(code) ?? { status: 500, expose: false, meaning: '' };
    this.name = 'KernelError';
    this.code = code;
    this.status = opts.status ?? info.status;
    this.expose = info.expose;
    this.details = opts.details;
    this.response = opts.response;
    this.plugin = opts.plugin;
  }
}

/** True for a KernelError, also one made by a second copy of this module (an external plugin's own install). */
export function isKernelError(err: unknown): err is KernelError {
  return (
    err instanceof KernelError ||
    (err instanceof Error && err.name === 'KernelError' && typeof (err as KernelError).code === 'string')
  );
}

/** Several boot problems reported at once, each naming its plugin (Backstage style). */
export class AggregateKernelError extends KernelError {
  readonly errors: KernelError[];
  constructor(errors: KernelError[]) {
    super(
      'E_BOOT',
      `${errors.length} problem(s) stop the start:\n` + errors.map((e) => `  - [${e.code}] ${e.message}`).join('\n'),
    );
    this.errors = errors;
  }
}
