/** Boots entity-contribute and payment behind the REST bindings (shared by the payment tests). */
import { bootEntityHttp, type EntityHttp } from '../../support/entity-http';

export type { Answer, Headers, Row } from '../../support/entity-http';
export type Crm = EntityHttp;

export const bootPayments = (): Promise<Crm> =>
  bootEntityHttp({ plugins: ['entity-contribute', 'payment', 'compat-civicrm'] });
