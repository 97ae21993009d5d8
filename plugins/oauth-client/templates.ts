/**
 * The two template evaluators of reference §7.2, as pure functions.
 * - `evaluateTemplate` (mail and generic templates): top-level strings only; every `{{path|filter}}` is
 *   replaced inline; a missing path gives ''; filters getMailDomain / getMailUser (unknown filter → '');
 *   other values pass through unchanged.
 * - `evaluateContactTemplate`: every leaf recursively; a leaf containing `{{expr}}` is replaced by the
 *   value of its first expression (not interpolated); the only filter is `lowercase`.
 */
const EXPR = /\{\{([A-Za-z0-9_.|]+)\}\}/g;

export type TemplateVars = Record<string, unknown>;

export function lookup(vars: TemplateVars, path: string): unknown {
  let cur: unknown = vars;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

const mailFilters: Record<string, (v: string) => string> = {
  getMailDomain: (v) => (v.includes('@') ? v.slice(v.lastIndexOf('@') + 1) : ''),
  getMailUser: (v) => (v.includes('@') ? v.slice(0, v.lastIndexOf('@')) : v),
};

function evalExpr(expr: string, vars: TemplateVars, filters: Record<string, (v: string) => string>): unknown {
  const [path, ...chain] = expr.split('|');
  let value: unknown = lookup(vars, path);
  for (const f of chain) {
    const fn = filters[f];
    if (!fn) return '';
    value = fn(value === undefined || value === null ? '' : String(value));
  }
  return value;
}

export function evaluateTemplate(template: Record<string, unknown>, vars: TemplateVars): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(template)) {
    out[k] =
      typeof v === 'string'
        ? v.replace(EXPR, (_m, expr: string) => {
            const r = evalExpr(expr, vars, mailFilters);
            return r === undefined || r === null ? '' : typeof r === 'object' ? JSON.stringify(r) : String(r);
          })
        : v;
  }
  return out;
}

const contactFilters: Record<string, (v: string) => string> = { lowercase: (v) => v.toLowerCase() };

export function evaluateContactTemplate<T>(template: T, vars: TemplateVars): T {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    if (typeof v === 'string') {
      const m = /\{\{([A-Za-z0-9_.|]+)\}\}/.exec(v);
      if (m) return evalExpr(m[1], vars, contactFilters) ?? null;
    }
    return v;
  };
  return walk(template) as T;
}
