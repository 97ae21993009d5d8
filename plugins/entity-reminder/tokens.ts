/**
 * Reminder tokens: `{contact.display_name}`, `{activity.subject}`, `{schedule.title}` and the like, from the
 * recipient's contact, the activity and the schedule; HTML bodies get the values escaped. Unknown tokens stay.
 */
type Row = Record<string, unknown>;

const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const shown = (value: unknown) =>
  value instanceof Date ? value.toISOString().replace('T', ' ').slice(0, 19) : String(value);

export function render(template: string, data: Record<string, Row>, html = false): string {
  return template.replace(/\{(contact|activity|schedule)\.([a-z_]+)\}/g, (whole, scope: string, name: string) => {
    const value = data[scope]?.[name];
    if (value === undefined || value === null) return whole;
    return html ? escapeHtml(shown(value)) : shown(value);
  });
}
