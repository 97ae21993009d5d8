/** Boots the meetings fixture (test/fixtures/row-access) behind the REST bindings, with users holding API keys. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootEntityHttp, type EntityHttp } from '../../support/entity-http';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/row-access');
import type { Headers } from '../../support/entity-http';
export type { Headers, Row } from '../../support/entity-http';
export type Meetings = EntityHttp;

export const bootMeetings = (pluginConfig?: Record<string, unknown>): Promise<Meetings> =>
  bootEntityHttp({ plugins: ['meetings'], pluginDirs: [FIXTURES], pluginConfig });

/** A meeting with these attendees and one note ("about <subject>"), written by `admin`; its id. */
export async function addMeeting(
  meetings: Meetings,
  admin: Headers,
  subject: string,
  contacts: number[],
): Promise<number> {
  const id = Number((await meetings.api4(admin, 'Meeting', 'create', { values: { subject } })).values[0].id);
  for (const contactId of contacts)
    await meetings.api4(admin, 'MeetingContact', 'create', { values: { meeting_id: id, contact_id: contactId } });
  await meetings.api4(admin, 'MeetingNote', 'create', { values: { meeting_id: id, note: `about ${subject}` } });
  return id;
}
