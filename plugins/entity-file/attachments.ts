/**
 * Attachment (4.6.0): a File and its EntityFile as one record, with the content. Reads and writes go
 * through the EntityFile row access (the attached record's); the File row and the stored content follow.
 */
import { Readable } from 'node:stream';
import type { ActionContext } from '../../kernel';
import { invalid, mandatoryMissing } from '../api3';
import type { Condition, Entities, EntityService } from '../entity-core';
import { checkName, keyFor, nameOf } from './names';
import type { FileStorage } from './storage';

type Params = Record<string, unknown>;
type Row = Record<string, unknown>;
const has = (value: unknown) => value !== undefined && value !== null && value !== '';

export interface AttachmentDeps {
  service: () => EntityService;
  storage: () => FileStorage;
  maxBytes: number;
}

export const DOWNLOAD_PATH = '/crm/file';
const SELECT = [
  'id',
  'entity_table',
  'entity_id',
  'file_id',
  'file_id.uri',
  'file_id.mime_type',
  'file_id.description',
  'file_id.upload_date',
];

export const session = (deps: AttachmentDeps, ctx: ActionContext, trusted = ctx.trusted): Entities =>
  deps.service().bind({ db: ctx.db, principal: ctx.principal, scope: ctx.scope, trusted });

/** The attachments matching a get or delete, as the caller may see them. */
export async function findAttachments(entities: Entities, params: Params): Promise<Row[]> {
  for (const unsupported of ['name', 'content', 'path', 'url'])
    if (has(params[unsupported])) throw invalid(`Get by ${unsupported} is not currently supported`);
  const where: Condition[] = [];
  if (has(params.id)) {
    if (!/^\d+$/.test(String(params.id))) throw invalid('Malformed id');
    where.push({ path: 'file_id', op: '=', value: Number(params.id) });
  }
  if (has(params.entity_id) && !/^\d+$/.test(String(params.entity_id))) throw invalid('Malformed entity_id');
  for (const field of ['entity_table', 'entity_id'])
    if (has(params[field])) where.push({ path: field, op: '=', value: params[field] });
  for (const field of ['mime_type', 'description', 'upload_date'])
    if (has(params[field])) where.push({ path: `file_id.${field}`, op: '=', value: params[field] });
  return entities.get('EntityFile', { where, select: SELECT, orderBy: [{ path: 'file_id', dir: 'ASC' }] });
}

async function contentOf(storage: FileStorage, key: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.read(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The wire form: the reference's fields, the download URL, and the content only when asked for. */
export async function present(row: Row, withContent: boolean, storage: FileStorage): Promise<Row> {
  const out: Row = {
    id: String(row.file_id),
    name: nameOf(String(row['file_id.uri'])),
    mime_type: row['file_id.mime_type'],
    description: row['file_id.description'] ?? null,
    upload_date: row['file_id.upload_date'],
    entity_table: row.entity_table,
    entity_id: String(row.entity_id),
    url: `${DOWNLOAD_PATH}?id=${String(row.file_id)}&eid=${String(row.entity_id)}`,
  };
  if (withContent) out.content = await contentOf(storage, String(row['file_id.uri']));
  return out;
}

export const wantsContent = (params: Params) => {
  const asked = params.return;
  const list = Array.isArray(asked) ? asked : typeof asked === 'string' ? asked.split(',') : [];
  return list.map((item) => String(item).trim()).includes('content');
};

/** Attachment.create: a new file with its content, or (with id) a new description or MIME type. */
/** What Attachment.create takes; anything else is refused rather than dropped. */
const CREATE_KEYS = new Set([
  'id',
  'name',
  'mime_type',
  'description',
  'upload_date',
  'entity_table',
  'entity_id',
  'content',
]);
const CONTROL_KEYS = new Set([
  'options',
  'options.move-file',
  'return',
  'sequential',
  'check_permissions',
  'version',
  'debug',
]);

export async function createAttachment(deps: AttachmentDeps, params: Params, ctx: ActionContext): Promise<Row> {
  const unknown = Object.keys(params).filter(
    (key) => !CREATE_KEYS.has(key) && !CONTROL_KEYS.has(key) && !key.startsWith('api.'),
  );
  if (unknown.length) throw invalid(`Unknown Attachment field(s): ${unknown.join(', ')}`);
  const options = (params.options ?? {}) as Params;
  if (has(params['options.move-file']) || has(options['move-file']))
    throw invalid('options.move-file is not supported: send the file in content');
  const asCaller = session(deps, ctx);
  const trusted = session(deps, ctx, true);
  if (has(params.id)) {
    const [found] = await findAttachments(asCaller, { id: params.id });
    if (!found) throw invalid('Invalid ID');
    if (has(params.name) && params.name !== nameOf(String(found['file_id.uri']))) throw invalid('Cannot modify name');
    if (has(params.content)) throw invalid('Cannot modify content: delete the attachment and create it again');
    for (const field of ['entity_table', 'entity_id'])
      if (has(params[field]) && String(params[field]) !== String(found[field])) throw invalid(`Cannot modify ${field}`);
    // Writing the EntityFile as the caller checks they may still edit the record it is attached to.
    await asCaller.save('EntityFile', { id: found.id });
    const changes: Row = { id: found.file_id };
    for (const field of ['mime_type', 'description']) if (params[field] !== undefined) changes[field] = params[field];
    await trusted.save('File', changes);
    return (await findAttachments(asCaller, { id: params.id }))[0];
  }
  const missing = ['name', 'mime_type', 'entity_table', 'entity_id'].filter((field) => !has(params[field]));
  if (missing.length) throw mandatoryMissing(missing);
  if (typeof params.content !== 'string')
    throw invalid("Mandatory key(s) missing from params array: 'id' or 'content' (options.move-file is not supported)");
  const key = keyFor(checkName(params.name));
  await deps.storage().write(key, Readable.from([Buffer.from(params.content, 'utf8')]), deps.maxBytes);
  try {
    const file = await trusted.save('File', {
      uri: key,
      mime_type: params.mime_type,
      description: params.description,
      upload_date: params.upload_date ?? new Date(),
      created_id: ctx.principal.contactId ?? undefined,
    });
    // As the caller: refused unless they may edit the record the file is attached to.
    await asCaller.save('EntityFile', {
      entity_table: params.entity_table,
      entity_id: params.entity_id,
      file_id: file.id,
    });
    return (await findAttachments(asCaller, { id: file.id }))[0];
  } catch (err) {
    await deps.storage().remove(key);
    throw err;
  }
}

/** Attachment.delete: by id, or every file of a record (entity_table + entity_id). */
export async function deleteAttachments(deps: AttachmentDeps, params: Params, ctx: ActionContext): Promise<number> {
  if (!has(params.id) && !(has(params.entity_table) && has(params.entity_id)))
    throw mandatoryMissing(['id or entity_table+entity_id']);
  const asCaller = session(deps, ctx);
  const found = await findAttachments(asCaller, params);
  // The file and its content go with their last EntityFile (register.ts).
  for (const row of found) await asCaller.delete('EntityFile', Number(row.id));
  return found.length;
}
