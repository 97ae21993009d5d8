/**
 * entity-file: File and EntityFile, the Attachment actions and the download route. Row access: an
 * EntityFile is seen (written) when the caller holds the attached record's API permission and may see
 * (edit) that record; a File follows its EntityFile rows. Content is kept in the file storage.
 */
import path from 'node:path';
import { definePlugin, holds, KernelError, type Principal } from '../../kernel';
import { httpRoutes } from '../../host';
import {
  entityAccess,
  permissionFor,
  type Condition,
  type EntityRegistry,
  type EntityService,
  type EntityStore,
  type RowAccess,
  type RowOperation,
} from '../entity-core';
import { defineAttachmentActions } from './actions';
import { ATTACHABLE } from './entities/permissions';
import { fileStorageHook } from './hooks';
import { downloadRoute } from './route';
import { LocalFileStorage, type FileStorage } from './storage';

interface FileConfig {
  maxBytes: number;
  directory?: string;
}

export default definePlugin<FileConfig>(({ config, serviceConfig, services, hooks, actions, runHook, onReady }) => {
  const registry = services.resolve<EntityRegistry>('entities');
  const settings = serviceConfig as unknown as { root?: string; dataDir?: string };
  const dataDir = path.resolve(settings.root ?? process.cwd(), settings.dataDir ?? './var');
  let storage: FileStorage = new LocalFileStorage(config.directory ?? path.join(dataDir, 'files'));
  onReady(async () => {
    storage = (await runHook(fileStorageHook)) ?? storage;
  });
  const deps = {
    service: () => services.resolve<EntityService>('entityService'),
    storage: () => storage,
    maxBytes: config.maxBytes,
  };
  defineAttachmentActions(actions, deps);
  hooks.tap(httpRoutes, () => downloadRoute(() => storage));

  // The last EntityFile of a file takes the file and its content with it (an attachment deleted, or the record).
  registry.extend('EntityFile', {
    // Linking a file that is already attached elsewhere needs sight of it (else any editable record could
    // be used to read someone else's file). A fresh file (Attachment.create's) has no links yet.
    async beforeSave(values, sc) {
      const fileId = values.file_id ?? sc.existing?.file_id;
      const relinks =
        !sc.existing || (values.file_id !== undefined && Number(values.file_id) !== Number(sc.existing.file_id));
      if (!relinks || !(await sc.entities.count('EntityFile', { file_id: fileId }))) return values;
      const asCaller = services.resolve<EntityService>('entityService').bind({ db: sc.db, principal: sc.principal });
      if (!(await asCaller.count('File', { id: fileId })))
        throw new KernelError('E_FORBIDDEN', `File ${String(fileId)} is not yours to attach`);
      return values;
    },
    async afterDelete(row, sc) {
      const fileId = Number(row.file_id);
      if (await sc.entities.count('EntityFile', { file_id: fileId })) return;
      const [file] = await sc.entities.get('File', { where: { id: fileId }, select: ['id', 'uri'] });
      if (!file) return;
      await sc.entities.delete('File', fileId);
      if (file.uri) await storage.remove(String(file.uri));
    },
  });

  async function attachedAccess(principal: Principal, operation: RowOperation): Promise<RowAccess> {
    const store = services.resolve<EntityStore>('entityStore');
    const allowed: Condition[] = [];
    let everything = true;
    for (const [name, table] of Object.entries(ATTACHABLE)) {
      const target = registry.find(name);
      if (!target) continue;
      const permission = permissionFor(registry, name, operation === 'view' ? 'get' : 'update');
      const access = holds(permission, principal.permissions)
        ? await store.access.answer(target, operation, principal)
        : 'none';
      const onTable: Condition = { path: 'entity_table', op: '=', value: table };
      if (access === 'all') allowed.push(onTable);
      else everything = false;
      if (access !== 'all' && access !== 'none')
        allowed.push({
          and: [onTable, { exists: { entity: name, field: 'id', ref: 'entity_id', where: access.where } }],
        });
    }
    if (everything) return 'all';
    return allowed.length ? { where: [{ or: allowed }] } : 'none';
  }

  // Not async: other entities are answered at once (this runs on every read).
  hooks.tap(entityAccess, ({ entity, operation, principal }) => {
    if (entity !== 'EntityFile' && entity !== 'File') return undefined;
    return attachedAccess(principal, operation === 'view' ? 'view' : 'edit').then((access) => {
      if (entity === 'EntityFile' || access === 'all' || access === 'none') return access;
      return { where: [{ exists: { entity: 'EntityFile', field: 'file_id', where: access.where } }] };
    });
  });
});
