/**
 * JSON Schema validation (ajv) for manifests, configuration and action params, and for plugins' own schemas.
 * A validator is compiled once per flavour (ajv options) and schema text. `npm run build` also generates, ahead
 * of time, the validators of the schemas every start checks (bin/validators.mjs: manifests, host and plugin
 * configs, the JSON Schema meta-schema, OAuth provider files) into `dist/kernel/validators.cjs`; a start that
 * finds its schemas there loads no ajv compiler at all (~0.2–0.4 s of a start: docs/performance.md).
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { default as AjvClass, ErrorObject, Options, ValidateFunction } from 'ajv';

/** ajv options (and whether ajv-formats' formats are added): a validator's behaviour beyond its schema. */
export interface AjvFlavor {
  options: Options;
  formats?: boolean;
}

/**
 * Config and action params: `coerceTypes` because query-string params arrive as strings; `useDefaults` so
 * handlers see defaults; `allErrors` so a caller learns every problem at once.
 */
export const PARAMS_FLAVOR: AjvFlavor = {
  options: { allErrors: true, useDefaults: true, coerceTypes: true, strict: true, allowUnionTypes: true },
  formats: true,
};

/** Manifests: as PARAMS_FLAVOR, without coercion (a manifest must say what it means). */
export const MANIFEST_FLAVOR: AjvFlavor = {
  options: { ...PARAMS_FLAVOR.options, coerceTypes: false },
  formats: true,
};

/** The draft-07 meta-schema every action's params schema is checked against when defined. */
export const META_SCHEMA_ID = 'http://json-schema.org/draft-07/schema';

const require = createRequire(import.meta.url);

/** The key of a validator: its flavour and schema text (`meta:` names the meta-schema's validator). */
export function validatorKey(flavor: AjvFlavor, schema: object | string): string {
  const text = typeof schema === 'string' ? `meta:${schema}` : JSON.stringify(schema);
  return createHash('sha256').update(JSON.stringify(flavor)).update('\0').update(text).digest('hex').slice(0, 32);
}

let ahead: Record<string, ValidateFunction> | null | undefined;

/** The validator generated at build time for this key, if any (none when running the TypeScript sources). */
function precompiled(key: string): ValidateFunction | undefined {
  if (ahead === undefined) {
    try {
      ahead = require('./validators.cjs') as Record<string, ValidateFunction>;
    } catch {
      ahead = null;
    }
  }
  return ahead?.[key];
}

const instances = new Map<string, AjvClass>();

/** One ajv per flavour for the process (each new instance compiles the meta-schema again, ~40 ms). */
export function ajvFor(flavor: AjvFlavor, extra: Options = {}): AjvClass {
  const id = JSON.stringify([flavor, extra]);
  let ajv = instances.get(id);
  if (!ajv) {
    // Loaded on first need: with the validators generated at build time, a start needs no compiler.
    const Ajv = (require('ajv') as { default: typeof AjvClass }).default;
    ajv = new Ajv({ ...flavor.options, ...extra });
    if (flavor.formats) (require('ajv-formats') as { default: (a: AjvClass) => void }).default(ajv);
    instances.set(id, ajv);
  }
  return ajv;
}

const compiled = new Map<string, ValidateFunction>();

/** A validator of `flavor` for `schema`: generated at build time, or compiled once per schema text. */
export function compileWith(flavor: AjvFlavor, schema: object): ValidateFunction {
  const key = validatorKey(flavor, schema);
  let validate = compiled.get(key) ?? precompiled(key);
  if (!validate) validate = ajvFor(flavor).compile(schema);
  compiled.set(key, validate);
  return validate;
}

/** A PARAMS_FLAVOR validator (host config, plugin configs, action params). */
export function compileShared(schema: object): ValidateFunction {
  return compileWith(PARAMS_FLAVOR, schema);
}

/**
 * Checks a params schema against the JSON Schema meta-schema (as ajv's `validateSchema` on a PARAMS_FLAVOR
 * instance); returns ajv's `errorsText` of the problems, or undefined when it is valid.
 */
export function schemaProblems(schema: object): string | undefined {
  const $schema = (schema as { $schema?: unknown }).$schema;
  const validate = $schema === undefined ? precompiled(validatorKey(PARAMS_FLAVOR, META_SCHEMA_ID)) : undefined;
  if (!validate) {
    const ajv = ajvFor(PARAMS_FLAVOR);
    return ajv.validateSchema(schema) ? undefined : ajv.errorsText(ajv.errors);
  }
  if (validate(schema)) return undefined;
  return (validate.errors ?? []).map((e) => `data${e.instancePath} ${e.message}`).join(', ');
}

/** A validator that compiles on its first call (then validates as the compiled one; `errors` mirrored). */
export function compileOnFirstUse(compile: () => ValidateFunction): ValidateFunction {
  let compiled: ValidateFunction | undefined;
  const validate = function (this: unknown, data: unknown) {
    compiled ??= compile();
    const valid = compiled.call(this, data);
    validate.errors = compiled.errors;
    return valid;
  } as unknown as ValidateFunction;
  validate.errors = null;
  return validate;
}

/** Human-readable ajv errors: `<path> <message>`, each naming the key path. */
export function describeErrors(errors: ErrorObject[] | null | undefined, root = ''): string[] {
  return (errors ?? []).map((e) => {
    const path = (root + e.instancePath).replace(/^\//, '').replace(/\//g, '.') || '(root)';
    const extra =
      e.keyword === 'additionalProperties'
        ? ` '${(e.params as { additionalProperty: string }).additionalProperty}'`
        : e.keyword === 'enum'
          ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})`
          : '';
    return `${path} ${e.message}${extra}`;
  });
}
