/** One CSV row → what it asks for (contact values, blocks, groups, tags, custom values), or why it is refused. */
import type { Mapping } from './mapping';

type Row = Record<string, unknown>;

export interface ImportRecord {
  row: number;
  contact: Row;
  custom: Row;
  /** Custom keys (`custom_12`) → their APIv4 names (`More_About.Size`), for reads. */
  customNames: Record<string, string>;
  email?: string;
  phone?: string;
  address?: Row;
  groups: string[];
  tags: string[];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const list = (cell: string) =>
  cell
    .split(/[;|,]/)
    .map((item) => item.trim())
    .filter(Boolean);

/** The record, or a reason string when the row cannot be imported as it stands. */
export function toRecord(row: number, cells: string[], headers: string[], mapping: Mapping): ImportRecord | string {
  if (cells.length !== headers.length) return `the row has ${cells.length} cells, the header ${headers.length}`;
  const record: ImportRecord = { row, contact: {}, custom: {}, customNames: {}, groups: [], tags: [] };
  for (const [i, target] of mapping.entries()) {
    const cell = cells[i].trim();
    if (!target || cell === '') continue;
    switch (target.kind) {
      case 'contact':
        record.contact[target.field] = cell;
        break;
      case 'email':
        if (!EMAIL.test(cell)) return `${headers[i]}: "${cell.slice(0, 80)}" is not an email address`;
        record.email = cell;
        break;
      case 'phone':
        record.phone = cell;
        break;
      case 'address':
        (record.address ??= {})[target.field] = cell;
        break;
      case 'groups':
        record.groups.push(...list(cell));
        break;
      case 'tags':
        record.tags.push(...list(cell));
        break;
      case 'custom':
        record.custom[target.key] = cell;
        record.customNames[target.key] = target.v4;
        break;
    }
  }
  const contact = record.contact;
  contact.contact_type ??= 'Individual';
  const type = String(contact.contact_type);
  if (type === 'Organization' && !contact.organization_name) return 'an organization needs organization_name';
  if (type === 'Household' && !contact.household_name) return 'a household needs household_name';
  if (type === 'Individual' && !['first_name', 'last_name', 'display_name'].some((f) => contact[f]) && !record.email)
    return 'an individual needs a first name, a last name, a display name or an email';
  if (!['Individual', 'Organization', 'Household'].includes(type)) return `unknown contact_type "${type}"`;
  return record;
}
