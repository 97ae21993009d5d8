/** Boots the meetings fixture (test/fixtures/row-access) behind the REST bindings, with users holding API keys. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootEntityHttp, type EntityHttp } from '../../support/entity-http';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/row-access');
export type { Headers, Row } from '../../support/entity-http';
export type Meetings = EntityHttp;

export const bootMeetings = (): Promise<Meetings> => bootEntityHttp({ plugins: ['meetings'], pluginDirs: [FIXTURES] });
