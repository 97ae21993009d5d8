export * from './types';
export * from './hooks';
export { EntityRegistry } from './registry';
