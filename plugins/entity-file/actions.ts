/** The APIv3 Attachment actions (4.6.0) and the internal one the download route runs. */
import type { ActionContext, ActionRegistrar } from '../../kernel';
import { invalid } from '../api3';
import {
  createAttachment,
  deleteAttachments,
  findAttachments,
  present,
  session,
  wantsContent,
  type AttachmentDeps,
} from './attachments';

type Params = Record<string, unknown>;
const open = { type: 'object', additionalProperties: true };
export const DOWNLOAD_ACTION = { version: 3, entity: 'Attachment', action: 'download' } as const;

const FIELDS: Record<string, Params> = {
  id: { name: 'id', type: 1, title: 'File ID' },
  name: { name: 'name', type: 2, title: 'Name (write-once)', description: 'The logical file name (not searchable)' },
  mime_type: { name: 'mime_type', type: 2, title: 'Mime Type' },
  description: { name: 'description', type: 2, title: 'File Description' },
  upload_date: { name: 'upload_date', type: 12, title: 'File Upload Date' },
  entity_table: { name: 'entity_table', type: 2, title: 'Entity Table (write-once)' },
  entity_id: { name: 'entity_id', type: 1, title: 'Entity ID (write-once)' },
  url: { name: 'url', type: 2, title: 'URL (read-only)', description: 'URL for downloading the file (not searchable)' },
  content: {
    name: 'content',
    type: 2,
    title: 'Content',
    description: 'File content (not searchable, not returned by default)',
  },
};

function envelope(rows: Params[]) {
  const values = Object.fromEntries(rows.map((row) => [String(row.id), row]));
  return {
    is_error: 0,
    version: 3,
    count: rows.length,
    ...(rows.length === 1 ? { id: Number(rows[0].id) } : {}),
    values,
  };
}

export function defineAttachmentActions(actions: ActionRegistrar, deps: AttachmentDeps): void {
  const base = { version: 3 as const, entity: 'Attachment', params: open, permission: 'access CRM' };
  actions.define({
    ...base,
    action: 'get',
    description:
      "Files attached to records the caller may see; `url` to download, `content` only with return: ['content']",
    async handler(params: Params, ctx: ActionContext) {
      const rows = await findAttachments(session(deps, ctx), params);
      const withContent = wantsContent(params);
      return envelope(await Promise.all(rows.map((row) => present(row, withContent, deps.storage()))));
    },
  });
  actions.define({
    ...base,
    action: 'create',
    description: 'Attaches a file (name, mime_type, entity_table, entity_id, content) to a record the caller may edit',
    writes: true,
    async handler(params: Params, ctx: ActionContext) {
      const row = await createAttachment(deps, params, ctx);
      return envelope([await present(row, wantsContent(params), deps.storage())]);
    },
  });
  actions.define({
    ...base,
    action: 'delete',
    description: 'Deletes attachments by id, or every attachment of a record (entity_table + entity_id)',
    writes: true,
    async handler(params: Params, ctx: ActionContext) {
      const count = await deleteAttachments(deps, params, ctx);
      return { is_error: 0, version: 3, count, values: [] };
    },
  });
  actions.define({
    ...base,
    action: 'getfields',
    description: 'The Attachment fields',
    async handler() {
      return { is_error: 0, version: 3, count: Object.keys(FIELDS).length, values: FIELDS };
    },
  });
  actions.define({
    ...base,
    action: 'download',
    description: 'The file the download route streams, when the caller may see the record it is attached to',
    internal: true,
    async handler(params: Params, ctx: ActionContext) {
      if (!/^\d+$/.test(String(params.id ?? '')) || !/^\d+$/.test(String(params.eid ?? '')))
        throw invalid('Malformed id');
      const [row] = await findAttachments(session(deps, ctx), { id: params.id, entity_id: params.eid });
      if (!row) return null;
      return {
        key: row['file_id.uri'],
        mime_type: row['file_id.mime_type'],
        name: (await present(row, false, deps.storage())).name,
      };
    },
  });
}
