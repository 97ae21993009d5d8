/**
 * Configuration: `crm.config.json` (or the file named by `CRM_CONFIG`) overlaid by environment
 * variables, validated with ajv. A bad value stops the start naming its key path.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { KernelError, type ServiceConfig } from '../kernel';
import { compileShared, describeErrors } from '../kernel/schema';
import { limitsSchema } from './limits';
import { secretsSchema } from './secrets';

declare module '../kernel/types' {
  /** The host's keys of the service configuration (the kernel declares the rest). */
  interface ServiceConfig {
    server: {
      host: string;
      port: number;
      shutdownTimeoutMs: number;
      publicUrl?: string;
      trustProxy: boolean;
      cors: { origins: string[]; credentials: boolean; maxAgeSeconds: number; exposeHeaders: string[] };
    };
    database: {
      url?: string;
      memory: boolean;
      schema?: string;
      embeddedSharedBuffers: string;
      embeddedThread: boolean;
      connectRetryMs: number;
      /** PostgreSQL: light page reads share round trips on these connections (host/pipelined-reads.ts). */
      pipeline: { connections: number; lightMs: number; stallMs: number };
    };
    /** Keys for secrets at rest (host/secrets.ts); the first encrypts. */
    secrets: { keys?: Array<{ kid: string; key: string }> };
    /** Prometheus metrics at `/metrics`: off unless enabled; a bearer token when set. */
    metrics: { enabled: boolean; token?: string };
    /** Folder for the embedded database and private files (`oauth-providers/`…). */
    dataDir: string;
    log: { level: string; pretty?: boolean; access: boolean };
  }
}

/** The whole service configuration: the kernel's keys and the host's. */
export type Config = ServiceConfig;

export const configSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    plugins: { type: 'array', items: { type: 'string' }, uniqueItems: true },
    enable: { type: 'array', items: { type: 'string' }, default: [] },
    disable: { type: 'array', items: { type: 'string' }, default: [] },
    pluginPaths: { type: 'array', items: { type: 'string' }, default: [] },
    pluginConfig: { type: 'object', additionalProperties: { type: 'object' }, default: {} },
    server: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        host: { type: 'string', default: '127.0.0.1' },
        port: { type: 'integer', minimum: 0, maximum: 65535, default: 8080 },
        shutdownTimeoutMs: { type: 'integer', minimum: 0, default: 10000 },
        publicUrl: { type: 'string', format: 'uri' },
        trustProxy: { type: 'boolean', default: false },
        cors: {
          type: 'object',
          additionalProperties: false,
          default: {},
          description: 'Cross-origin requests from browser apps: off while origins is empty',
          properties: {
            origins: {
              type: 'array',
              uniqueItems: true,
              default: [],
              items: { type: 'string', pattern: '^(\\*|https?://[^/\\s]+)$' },
              description: "Allowed origins (scheme://host[:port]), or '*' for any (never with credentials)",
            },
            credentials: { type: 'boolean', default: false, description: 'Allow cookies and Authorization' },
            maxAgeSeconds: { type: 'integer', minimum: 0, default: 600 },
            exposeHeaders: { type: 'array', items: { type: 'string' }, default: ['X-Request-Id'] },
          },
        },
      },
    },
    database: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        url: { type: 'string', pattern: '^postgres(ql)?://' },
        memory: { type: 'boolean', default: false },
        schema: { type: 'string', pattern: '^[a-z_][a-z0-9_]{0,62}$' },
        // The embedded engine's buffer cache lives in this process; the OS page cache sits behind it.
        embeddedSharedBuffers: { type: 'string', pattern: '^[1-9][0-9]{0,5}(kB|MB|GB)$', default: '32MB' },
        // Run the embedded engine in a worker thread (host/engine-thread.ts): faster reads, slower writes.
        embeddedThread: { type: 'boolean', default: false },
        // At start, PostgreSQL may still be coming up (containers): retry with backoff this long.
        connectRetryMs: { type: 'integer', minimum: 0, default: 10000 },
        // PostgreSQL: light page reads outside transactions share these connections' round trips (pipeline mode).
        pipeline: {
          type: 'object',
          additionalProperties: false,
          default: {},
          properties: {
            connections: { type: 'integer', minimum: 0, maximum: 16, default: 1 },
            lightMs: { type: 'number', exclusiveMinimum: 0, default: 3 },
            stallMs: { type: 'integer', minimum: 1, default: 20 },
          },
        },
      },
    },
    secrets: secretsSchema,
    metrics: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        enabled: { type: 'boolean', default: false },
        token: { type: 'string', minLength: 16 },
      },
    },
    dataDir: { type: 'string', default: './var' },
    log: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        level: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
        pretty: { type: 'boolean' },
        access: { type: 'boolean', default: true },
      },
    },
    limits: limitsSchema,
    mode: { enum: ['production', 'development', 'test'], default: 'production' },
    pluginTimeoutMs: { type: 'integer', minimum: 1, default: 10000 },
  },
} as const;

const validate = compileShared(configSchema);

/** Configuration as read from JSON and the environment, before ajv validates it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped until validated
type RawConfig = Record<string, any>;

/** Environment variables that override the file. */
const envMap: Array<[string, (raw: RawConfig, v: string) => void]> = [
  ['DATABASE_URL', (c, v) => ((c.database ??= {}).url = v)],
  ['CRM_DB_SCHEMA', (c, v) => ((c.database ??= {}).schema = v)],
  ['PORT', (c, v) => ((c.server ??= {}).port = v)],
  ['HOST', (c, v) => ((c.server ??= {}).host = v)],
  ['CRM_PUBLIC_URL', (c, v) => ((c.server ??= {}).publicUrl = v)],
  ['CRM_DATA_DIR', (c, v) => (c.dataDir = v)],
  ['LOG_LEVEL', (c, v) => ((c.log ??= {}).level = v)],
  ['CRM_TRUST_PROXY', (c, v) => ((c.server ??= {}).trustProxy = v === 'true' || v === '1')],
  ['CRM_DB_CONNECT_RETRY_MS', (c, v) => ((c.database ??= {}).connectRetryMs = v)],
  ['CRM_DB_PIPELINE_CONNECTIONS', (c, v) => (((c.database ??= {}).pipeline ??= {}).connections = v)],
  ['CRM_METRICS_TOKEN', (c, v) => ((c.metrics ??= {}).token = v)],
  [
    'CRM_CORS_ORIGINS',
    (c, v) =>
      (((c.server ??= {}).cors ??= {}).origins = v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)),
  ],
  [
    'CRM_PLUGINS',
    (c, v) =>
      (c.plugins = v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)),
  ],
  [
    'CRM_ENABLE',
    (c, v) =>
      (c.enable = v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)),
  ],
  [
    'NODE_ENV',
    (c, v) => {
      if (['production', 'development', 'test'].includes(v)) c.mode ??= v;
    },
  ],
];

export interface LoadConfigOptions {
  /** Path of the config file; default `CRM_CONFIG` or `./crm.config.json` (optional file). */
  file?: string;
  env?: NodeJS.ProcessEnv;
  /** Overrides applied last (tests, CLI flags). */
  overrides?: Record<string, unknown>;
}

/** Reads, merges and validates the configuration. */
export function loadConfig(opts: LoadConfigOptions = {}): Config {
  const env = opts.env ?? process.env;
  const named = opts.file || env.CRM_CONFIG || undefined;
  const file = path.resolve(named ?? 'crm.config.json');
  let raw: RawConfig = {};
  if (existsSync(file)) {
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new KernelError('E_CONFIG_INVALID', `${file} is not valid JSON: ${(err as Error).message}`);
    }
  } else if (named) {
    throw new KernelError('E_CONFIG_INVALID', `Config file ${file} does not exist`);
  }
  for (const [name, apply] of envMap) if (env[name] !== undefined && env[name] !== '') apply(raw, env[name]!);
  return finishConfig(deepMerge(raw, opts.overrides ?? {}), path.dirname(file));
}

/** Validates an already-built config object (used by loadConfig and the test harness). */
export function finishConfig(raw: Record<string, unknown>, root = process.cwd()): Config {
  const copy = structuredClone(raw);
  if (!validate(copy)) {
    const problems = describeErrors(validate.errors);
    throw new KernelError('E_CONFIG_INVALID', `Invalid configuration:\n  - ${problems.join('\n  - ')}`, {
      details: { problems },
    });
  }
  const config = copy as unknown as Config;
  const { cors } = config.server;
  if (cors.credentials && cors.origins.includes('*')) {
    const problem =
      "server.cors: credentials are never allowed with the wildcard origin '*' " +
      '(any site could act as the signed-in user); list the origins';
    throw new KernelError('E_CONFIG_INVALID', `Invalid configuration:\n  - ${problem}`, {
      details: { problems: [problem] },
    });
  }
  return { ...config, root };
}

function deepMerge(a: RawConfig, b: RawConfig): RawConfig {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) {
    out[k] =
      v && typeof v === 'object' && !Array.isArray(v) && a[k] && typeof a[k] === 'object' ? deepMerge(a[k], v) : v;
  }
  return out;
}
