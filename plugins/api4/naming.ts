/**
 * APIv4's naming rules, registered with the kernel's action registry for version 4: entity names are
 * exact (`Contact`, never `contact`), action names case-insensitive, and an unknown action is worded
 * `API (<Entity>, <action>) does not exist` like APIv3's, without APIv3's invitation to implement it.
 */
import type { VersionNaming } from '../../kernel';

export const api4Naming: VersionNaming = {
  entity: (raw) => String(raw),
  action: (raw) => String(raw),
  notFound: (entity, action) => `API (${entity}, ${action}) does not exist`,
};
