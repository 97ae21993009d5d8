/** entity-group's public surface: the helpers its rules are made of. */
export { groupFilter, groupTypes, nameFromTitle } from './group-lifecycle';
export { idsOf } from './group-contact-actions';
export type { SmartGroups } from './smart-groups';
