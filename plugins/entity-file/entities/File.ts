/** File: an uploaded file's record; its content lives in the file storage under `uri` (never in the database). */
import type { EntityDef } from '../../entity-core';
import { FILE_PERMISSIONS } from './permissions';

const File: EntityDef = {
  name: 'File',
  table: 'crm_file',
  description:
    'Uploaded (attached) files: the record; the content is in the file storage, joined to records by EntityFile',
  labelField: 'uri',
  permissions: FILE_PERMISSIONS,
  fields: [
    { name: 'id', type: 'Int', title: 'File ID', required: true, readonly: true },
    { name: 'file_type_id', type: 'Int', title: 'File Type' },
    { name: 'mime_type', type: 'String', title: 'Mime Type', maxlength: 255 },
    // The storage key: a sanitised name and a random suffix, set when the content is stored.
    { name: 'uri', type: 'String', title: 'Path', maxlength: 255, readonly: true },
    { name: 'description', type: 'String', title: 'File Description', maxlength: 255 },
    { name: 'upload_date', type: 'Timestamp', title: 'File Upload Date', default: { sql: 'now' } },
    { name: 'created_id', type: 'Int', title: 'Created By Contact ID', fk: 'Contact', onDelete: 'set null' },
  ],
};

export default File;
