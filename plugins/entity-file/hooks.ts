/** entity-file's hook: another plugin (an object store) may supply the file storage. */
import { defineHook } from '../../kernel';
import type { FileStorage } from './storage';

export const fileStorageHook = defineHook.bail<FileStorage, []>(
  'files.storage',
  'Supply the storage attachments are kept in (default: a folder under the data directory)',
);
