export * from './types';
export * from './hooks';
export { EntityRegistry, type OptionItem, type OptionGroupSource } from './registry';
export { permissionFor, snake } from './permissions';
