/** Boots entity-pledge behind the REST bindings (shared by its tests). */
import { bootEntityHttp, type EntityHttp } from '../../support/entity-http';

export type { Answer, Headers, Row } from '../../support/entity-http';
export type Crm = EntityHttp;

export const bootCrm = (): Promise<Crm> => bootEntityHttp({ plugins: ['entity-pledge', 'compat-civicrm'] });
