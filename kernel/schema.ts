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
 * One ajv with makeAjv()'s defaults for the process: each new instance compiles the JSON Schema meta-schema
 * again (~40 ms, several per start when the host config, every plugin config and the action registry had one).
 */
export const sharedAjv = (): Ajv => (shared ??= makeAjv());

/** A validator from sharedAjv(), compiled once per schema text (plugin configs are planned at every boot). */
export function compileShared(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = sharedAjv().compile(schema);
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
