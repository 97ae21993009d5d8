/**
 * Which contact a contact token belongs to (reference §6.3): the tag `linkContact:<id>`, `nullContactId`,
 * `createContact` (a contact made from the provider's contactTemplate), otherwise the caller's contact.
 */
import type { AwilixContainer } from 'awilix';
import type { Knex } from 'knex';
import { KernelError, type Cradle, type Principal } from '../../kernel';
import type { EntityService } from '../entity-core';
import { isObj, type Row } from './selectors';
import type { OAuthStore, SaveTokenContext } from './store';
import { evaluateContactTemplate } from './templates';

const invalid = (message: string) => new KernelError('E_INVALID_PARAMS', message);

/** Trusted principal for internal writes (row access not applied). */
const trusted = (principal?: Principal): Principal => ({
  contactId: principal?.contactId ?? null,
  userId: principal?.userId ?? null,
  via: 'system',
  permissions: new Set(['*']),
  attributes: {},
});

/**
 * `createContact` through the entity service (trusted, the caller's transaction): the Contact from the params,
 * then each chained `api.<Entity>.create` (the template's Email, Phone…) with the new contact's id.
 */
export function contactCreator(scope: AwilixContainer<Cradle>, db: Knex): (params: Row) => Promise<number> {
  return async (params) => {
    const entities = (scope.cradle.entityService as EntityService).bind({ db, principal: trusted(), trusted: true });
    const values: Row = {};
    const chained: Array<[string, Row]> = [];
    for (const [key, value] of Object.entries(params)) {
      const chain = /^api\.([A-Za-z]+)\.create$/i.exec(key);
      if (!chain) values[key] = value;
      else if (isObj(value)) chained.push([chain[1], value]);
    }
    const contactId = Number((await entities.save('Contact', values)).id);
    for (const [entity, chainValues] of chained) await entities.save(entity, { ...chainValues, contact_id: contactId });
    return contactId;
  };
}

export async function contactFromTag(
  store: OAuthStore,
  db: Knex,
  record: { tag?: unknown; client_id?: unknown },
  ctx: Pick<SaveTokenContext, 'callerContactId' | 'createContact'>,
): Promise<number | null> {
  const tag = typeof record.tag === 'string' ? record.tag : '';
  const link = /^linkContact:(\d+)$/.exec(tag);
  if (link) {
    const id = Number(link[1]);
    const exists = await db('crm_contact').where({ id }).first('id');
    if (!exists) throw invalid(`linkContact: contact ${id} does not exist`);
    return id;
  }
  if (tag === 'nullContactId') return null;
  if (tag === 'createContact') {
    const client = record.client_id ? await store.clientById(db, Number(record.client_id)) : null;
    const provider = client ? await store.opts.providers.get(String(client.provider)) : null;
    if (!provider?.contactTemplate)
      throw invalid(`createContact: provider ${provider?.name ?? '(none)'} has no contactTemplate`);
    const { secret: _s, ...publicClient } = client ?? {};
    const params = contactCreateParams(
      evaluateContactTemplate(provider.contactTemplate, { token: record, client: publicClient, provider }),
    );
    return ctx.createContact(params);
  }
  return ctx.callerContactId;
}

/**
 * A contactTemplate as APIv3 Contact.create params: our v3 shape as is, or the reference's APIv4 shape
 * (`values` + `chain` of `[Entity, 'create', {values}]`) turned into v3 params with `api.<Entity>.create` chains.
 */
export function contactCreateParams(tpl: Row): Row {
  if (!isObj(tpl.values)) return { ...tpl };
  const params: Row = { ...tpl.values };
  if (isObj(tpl.chain)) {
    for (const call of Object.values(tpl.chain)) {
      if (!Array.isArray(call) || typeof call[0] !== 'string' || typeof call[1] !== 'string') continue;
      const values = isObj(call[2]) && isObj(call[2].values) ? { ...call[2].values } : {};
      delete values.contact_id;
      params[`api.${call[0]}.${call[1]}`] = values;
    }
  }
  return params;
}
