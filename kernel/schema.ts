/** One ajv configuration for manifests, config and action params. */
import Ajv, { type ErrorObject } from 'ajv';
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
