/** One ajv configuration for manifests, config and action params. */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * `coerceTypes` because query-string params arrive as strings; `useDefaults` so handlers see
 * defaults; `allErrors` so a caller learns every problem at once.
 */
export function makeAjv(opts: { coerce?: boolean } = {}): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    useDefaults: true,
    coerceTypes: opts.coerce ?? true,
    strict: true,
    allowUnionTypes: true,
  });
  addFormats(ajv);
  return ajv;
}

let shared: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

/**
 * A validator with makeAjv()'s defaults from one shared instance, compiled once per schema text. Plugin
 * config schemas are planned at every boot: a new ajv per schema compiled the JSON Schema meta-schema again
 * each time (~40 ms apiece, most of a start's plugin planning).
 */
export function compileShared(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = (shared ??= makeAjv()).compile(schema);
    compiled.set(key, validate);
  }
  return validate;
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
