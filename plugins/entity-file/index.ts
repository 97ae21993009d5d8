/** entity-file's public surface: the storage interface (for an object-store plugin) and its hook. */
export type { FileStorage } from './storage';
export { LocalFileStorage } from './storage';
export { fileStorageHook } from './hooks';
