/** Boots entity-member behind the REST bindings (shared by its tests). */
import { bootEntityHttp, type EntityHttp } from '../../support/entity-http';

export type { Answer, Headers, Row } from '../../support/entity-http';
export type Crm = EntityHttp;

// entity-price: a price option may sell a membership (its terms decide a renewal).
export const bootCrm = (): Promise<Crm> =>
  bootEntityHttp({ plugins: ['entity-member', 'entity-price', 'compat-civicrm'] });
