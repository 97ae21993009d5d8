export * from './types';
export * from './hooks';
export { EntityRegistry, type OptionItem, type OptionGroupSource } from './registry';
export { ChangeBus } from './change-bus';
export { permissionFor, snake } from './permissions';
export { EntityService, type EntitySession, type SaveErrors, type SaveOptions } from './service';
export type { Entities, EntityQuery } from './entities';
