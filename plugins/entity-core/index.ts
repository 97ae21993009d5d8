export * from './types';
export * from './hooks';
export { EntityRegistry, type OptionItem, type OptionGroupSource } from './registry';
export { ChangeBus } from './change-bus';
export { permissionFor, snake } from './permissions';
export * from './schema';
export {
  applySchemaSteps,
  revertSchemaSteps,
  introspectSchema,
  comparableSnapshot,
  comparableSql,
  stepSql,
} from './ddl';
export { loadEntityFiles, entityFile, type EntityProvider } from './metadata';
