/** Permission requirements: evaluation and the reference's wording of a denial. */
import type { ApiRequest } from './core-hooks';
import type { Permission } from './types';

/** True when the permission set satisfies the requirement; `'*'` holds everything. */
export function holds(perm: Permission, granted: ReadonlySet<string>): boolean {
  if (perm === 'public') return true;
  if (typeof perm === 'string') return granted.has('*') || granted.has(perm);
  if ('allOf' in perm) return perm.allOf.every((p) => holds(p, granted));
  return perm.anyOf.some((p) => holds(p, granted));
}

/** Renders a requirement the way the reference does: `a and b`, `( a or b )`. */
export function describePermission(perm: Permission): string {
  if (typeof perm === 'string') return perm;
  if ('allOf' in perm) return perm.allOf.map(describePermission).join(' and ');
  return `( ${perm.anyOf.map(describePermission).join(' or ')} )`;
}

/** The kernel's default `api.authorize` tap (Stage.LATE). */
export function checkPermission(req: ApiRequest) {
  if (holds(req.permission, req.principal.permissions)) return 'allow' as const;
  return {
    deny:
      `API permission check failed for ${req.entity}/${req.action} call; ` +
      `insufficient permission: require ${describePermission(req.permission)}`,
  };
}
