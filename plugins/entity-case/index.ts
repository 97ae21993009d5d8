/** entity-case's public surface: the case entities' metadata and the definition's shape. */
export { default as Case } from './entities/Case';
export { default as CaseType } from './entities/CaseType';
export { default as CaseContact } from './entities/CaseContact';
export { default as CaseActivity } from './entities/CaseActivity';
export { DEFINITION_SCHEMA, type CaseDefinition } from './definition';
