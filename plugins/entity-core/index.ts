export * from './types';
export * from './hooks';
export { EntityRegistry, referenceTable, type OptionItem, type OptionGroupSource } from './registry';
export { ChangeBus } from './change-bus';
export { permissionFor, snake } from './permissions';
export * from './schema';
export { diffSchemas, foldSteps, normalizeSnapshot } from './schema-diff';
export { applySchemaSteps, revertSchemaSteps, stepSql } from './ddl';
export { introspectSchema, comparableSnapshot, comparableSql } from './introspect';
export { loadEntityFiles, entityFile, type EntityProvider } from './metadata';
export {
  AGGREGATES,
  MAX_CONDITION_DEPTH,
  MAX_JOINS,
  OPERATORS,
  V4_OPERATORS,
  conditionPaths,
  type Aggregate,
  type Condition,
  type Exists,
  type ExplicitJoin,
  type JoinType,
  type Filter,
  type Operator,
  type Query,
} from './conditions';
export { EntityStore } from './store';
export { KeptByVersion, permissionsText } from './kept';
export { whenTransactionEnds } from './transaction-end';
export { aggregateField } from './select-sql';
export type { JsonRender, JsonRow } from './json-rows';
export { referenceCounts, type RefCount } from './ref-counts';
export { listFilterItems, listFilterConditions } from './list-filters';
export { isList } from './collections';
export { dbError, sqlState } from './db-errors';
export { allOf, referencedRowAccess, RowAccessControl } from './row-access';
export { apiCliCommand, CLI_PRINCIPAL } from './cli';
export { EntityService, type EntitySession, type SaveErrors, type SaveOptions, type BatchOptions } from './service';
export type { Entities, EntityQuery } from './entities';
export { linkTo } from './link';
export { flagField, idField, textField } from './field-builders';
export { singleDefault } from './single-default';
export { present, truthy } from './session';
