/**
 * APIv3's naming rules (reference §1.3), registered with the kernel's action registry for version 3:
 * `contact` → `Contact`, `group_contact` → `GroupContact`, `uf_match` → `UFMatch`; action names are
 * munged and lower-cased; an unknown action is worded as the reference words it.
 */
import type { VersionNaming } from '../../kernel';

/**
 * Names APIv3 spells its own way: `acl` / `Acl` is the ACL entity and `acl_role` / `AclRole` the ACL entity
 * role (api/v3/Acl.php, api/v3/AclRole.php); `ACL` and `ACLEntityRole` work too.
 */
const v3Specials: Record<string, string> = { Im: 'Im', Acl: 'ACL', AclRole: 'ACLEntityRole', Pcp: 'Pcp' };

/** APIv3 entity-name normalisation. `groupcontact` stays `Groupcontact` and does not resolve. */
export function normaliseEntity(raw: string): string {
  const munged = String(raw)
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .slice(0, 63);
  const name = munged
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
  if (name.startsWith('Uf')) return 'UF' + name.slice(2);
  return v3Specials[name] ?? name;
}

/** Action names: munged to `[A-Za-z0-9_]` and lower-cased for lookup. */
export function normaliseAction(raw: string): string {
  return String(raw)
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .slice(0, 63)
    .toLowerCase();
}

export const api3Naming: VersionNaming = {
  entity: normaliseEntity,
  action: normaliseAction,
  notFound: (entity, action) => `API (${entity}, ${action}) does not exist (join the API team and implement it!)`,
};
