import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { KernelError, definePlugin } from '../../kernel';
import { api3Error, mandatoryMissing, invalid } from '../api3';
import type { EntityRegistry, SaveContext } from '../entity-core';
import type { Condition } from '../entity-core';
import { tapExplorerExamples } from './explorer-examples';
import { individualDisplayName, individualSortName } from './names';

type Row = Record<string, unknown>;
const has = (v: unknown) => v !== undefined && v !== null && v !== '';
const truthy = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true';

export default definePlugin(({ services, hooks }) => {
  tapExplorerExamples(hooks);
  const entities = services.resolve<EntityRegistry>('entities');

  async function label(db: Knex, field: string, value: unknown): Promise<string> {
    if (!has(value)) return '';
    const opts = await entities.optionsFor(db, entities.get('Contact').byName.get(field)!);
    return opts?.find((o) => o.value === String(value))?.label ?? '';
  }

  async function primaryEmail(sc: SaveContext, contactId: unknown): Promise<string> {
    if (!has(contactId)) return '';
    const row = (await sc.db('crm_email').where({ contact_id: contactId, is_primary: true }).first('email')) as
      { email?: string } | undefined;
    return row?.email ?? '';
  }

  /** `dupe_check=1`: the unsupervised rule — same names (and primary email when given) among live contacts. */
  async function dupeCheck(values: Row, sc: SaveContext): Promise<void> {
    const query = sc
      .db('crm_contact as c')
      .where('c.is_deleted', false)
      .andWhere('c.contact_type', values.contact_type as string);
    if (values.contact_type === 'Organization')
      query.andWhere('c.organization_name', values.organization_name as string);
    else if (values.contact_type === 'Household') query.andWhere('c.household_name', values.household_name as string);
    else {
      const email = typeof sc.params.email === 'string' ? sc.params.email.trim().toLowerCase() : '';
      if (!has(values.first_name) && !has(values.last_name) && !email) return;
      for (const field of ['first_name', 'last_name'])
        if (has(values[field])) query.andWhere(`c.${field}`, values[field] as string);
      if (email) query.whereExists(sc.db('crm_email as e').whereRaw('e.contact_id = c.id').andWhere('e.email', email));
    }
    const ids = ((await query.select('c.id').orderBy('c.id')) as Array<{ id: number }>).map((r) => r.id);
    if (ids.length)
      throw api3Error('E_API3_DUPLICATE', 'duplicate', `Found matching contacts: ${ids.join(',')}`, {
        ids: ids.map(String),
      });
  }

  /** `current_employer` (a name): finds or creates the organisation (§4.1). */
  async function employerId(name: string, given: unknown, sc: SaveContext): Promise<number> {
    const found = await sc.entities.get('Contact', {
      where: { contact_type: 'Organization', organization_name: name },
      select: ['id'],
      limit: 2,
    });
    if (found.length > 1) throw invalid('Found more than one Organisation with same Name.');
    const id = found.length
      ? Number(found[0].id)
      : Number((await sc.entities.save('Contact', { contact_type: 'Organization', organization_name: name })).id);
    if (has(given) && Number(given) !== id) throw invalid('Employer name and Employer id Mismatch');
    return id;
  }

  entities.extend('Contact', {
    beforeGet(params) {
      const copy = { ...params };
      const where: Condition[] = [];
      const show = copy.showAll;
      delete copy.showAll;
      if (show === 'all') copy.is_deleted = { IN: [0, 1] };
      else if (show === 'trash') copy.is_deleted = 1;
      else if (show === 'active') copy.is_deleted = 0;
      // sort_name / display_name: a LIKE search over names, nick name and primary email; spaces are wildcards.
      for (const k of ['sort_name', 'display_name']) {
        if (typeof copy[k] !== 'string') continue;
        const words = (copy[k] as string)
          .trim()
          .split(/[\s,]+/)
          .filter(Boolean);
        delete copy[k];
        if (!words.length) continue;
        const value = `%${words.join('%')}%`;
        where.push({
          or: ['sort_name', 'display_name', 'nick_name', 'email'].map((path) => ({ path, op: 'LIKE' as const, value })),
        });
      }
      return { params: copy, where };
    },

    async beforeSave(values, sc) {
      const ex = sc.existing;
      const perms = sc.principal.permissions;
      if (!ex) {
        if (!has(values.contact_type)) throw mandatoryMissing(['contact_type']);
        const type = values.contact_type;
        if (
          type === 'Individual' &&
          !['first_name', 'last_name', 'display_name'].some((f) => has(values[f])) &&
          !has(sc.params.email)
        ) {
          throw mandatoryMissing(
            ['first_name', 'last_name', 'email', 'display_name'],
            'Mandatory key(s) missing from params array: one of (first_name, last_name, email, display_name)',
          );
        }
        if (type === 'Organization' && !has(values.organization_name)) throw mandatoryMissing(['organization_name']);
        if (type === 'Household' && !has(values.household_name)) throw mandatoryMissing(['household_name']);
        values.hash = randomBytes(16).toString('hex');
        if (truthy(sc.params.dupe_check)) await dupeCheck(values, sc);
      } else if (has(values.contact_type) && values.contact_type !== ex.contact_type) {
        throw invalid('Contact type cannot be changed once set');
      }
      const type = (values.contact_type ?? ex?.contact_type) as string;
      const subs = (values.contact_sub_type ?? null) as string[] | null;
      if (Array.isArray(subs) && subs.length) {
        const subTypes = await sc.entities.get('OptionValue', {
          where: { 'option_group_id.name': 'contact_sub_type' },
          select: ['name', 'grouping'],
        });
        const parent = new Map(subTypes.map((r) => [String(r.name), String(r.grouping ?? '')]));
        const bad = subs.find((s) => parent.get(s) !== type);
        if (bad) throw invalid(`Invalid or Mismatched Contact Subtype: ${bad}`);
      }
      if (values.api_key !== undefined) {
        const own = ex && sc.principal.contactId === Number(ex.id) && perms.has('edit own api keys');
        if (!perms.has('*') && !perms.has('administer CRM') && !perms.has('edit api keys') && !own) {
          throw new KernelError('E_FORBIDDEN', 'Permission denied to modify api key', {
            details: { error_code: 'unauthorized' },
          });
        }
      }
      if (
        type === 'Individual' &&
        typeof sc.params.current_employer === 'string' &&
        sc.params.current_employer.trim()
      ) {
        values.employer_id = await employerId(sc.params.current_employer.trim(), values.employer_id, sc);
      }
      const merged = { ...(ex ?? {}), ...values } as Row;
      if (type === 'Organization') values.display_name = values.sort_name = merged.organization_name;
      else if (type === 'Household') values.display_name = values.sort_name = merged.household_name;
      else {
        const parts = {
          prefix: await label(sc.db, 'prefix_id', merged.prefix_id),
          first_name: merged.first_name as string,
          last_name: merged.last_name as string,
          suffix: await label(sc.db, 'suffix_id', merged.suffix_id),
        };
        let display =
          has(merged.first_name) || has(merged.middle_name) || has(merged.last_name)
            ? individualDisplayName(parts)
            : '';
        let sort = display ? individualSortName(parts) : '';
        if (!display) {
          const email =
            typeof sc.params.email === 'string' && sc.params.email
              ? sc.params.email.toLowerCase()
              : await primaryEmail(sc, ex?.id);
          const fallback =
            email ||
            (merged.user_unique_id as string) ||
            (sc.params.display_name as string) ||
            (sc.params.sort_name as string) ||
            (ex?.display_name as string) ||
            '';
          display = (sc.params.display_name as string) || fallback;
          sort = (sc.params.sort_name as string) || fallback;
          if (email) display = sort = email;
        }
        values.display_name = display;
        values.sort_name = sort;
      }
      if (ex) values.modified_date = new Date();
      return values;
    },

    async afterSave(row, sc) {
      if (!sc.existing && typeof sc.params.email === 'string' && sc.params.email.trim()) {
        await sc.entities.save('Email', { contact_id: row.id, email: sc.params.email.trim(), is_primary: 1 });
      }
    },

    async beforeDelete(row, sc) {
      if (sc.principal.contactId !== null && Number(row.id) === sc.principal.contactId) {
        throw invalid('This contact record is linked to the currently logged in user account - and cannot be deleted.');
      }
      if (truthy(sc.params.skip_undelete)) return;
      await sc
        .db('crm_contact')
        .where('id', row.id as number)
        .update({ is_deleted: true, modified_date: new Date() });
      return 'handled';
    },
  });

  /** Primary rules (§4.5) for the blocks of a contact. */
  function blockLifecycle(
    table: string,
    opts: {
      primary: boolean;
      locationDefault: boolean;
      normalise?: (v: Row) => void;
      onPrimary?: (row: Row, sc: SaveContext) => Promise<void>;
    },
  ) {
    const promote = async (db: Knex, contactId: unknown) => {
      const hasPrimary = await db(table).where({ contact_id: contactId, is_primary: true }).first('id');
      if (hasPrimary) return;
      const first = (await db(table)
        .where({ contact_id: contactId })
        .orderBy([{ column: 'is_primary', order: 'desc' }, { column: 'id' }])
        .first('id')) as { id: number } | undefined;
      if (first) await db(table).where('id', first.id).update({ is_primary: true });
    };
    return {
      async beforeSave(values: Row, sc: SaveContext) {
        opts.normalise?.(values);
        if (!sc.existing && opts.locationDefault && !has(values.location_type_id)) {
          const defaults = await sc.entities.get('LocationType', { where: { is_default: 1 }, select: ['id'] });
          values.location_type_id = defaults.length ? Number(defaults[0].id) : 1;
        }
        if (!opts.primary) return values;
        const contactId = values.contact_id ?? sc.existing?.contact_id;
        if (!has(contactId)) return values;
        const explicit = 'is_primary' in sc.params;
        if (!values.is_primary && (!sc.existing || explicit)) {
          const others = await sc
            .db(table)
            .where('contact_id', contactId as number)
            .modify((q) => {
              if (sc.existing) q.whereNot('id', sc.existing.id as number);
            })
            .first('id');
          if (!others) values.is_primary = 1;
        }
        if (sc.existing && !explicit) delete values.is_primary;
        return values;
      },
      async afterSave(row: Row, sc: SaveContext) {
        if (!opts.primary) return;
        if (row.is_primary) {
          await sc
            .db(table)
            .where('contact_id', row.contact_id as number)
            .whereNot('id', row.id as number)
            .update({ is_primary: false });
          await opts.onPrimary?.(row, sc);
        }
        await promote(sc.db, row.contact_id);
      },
      async beforeDelete(row: Row, sc: SaveContext) {
        await sc
          .db(table)
          .where('id', row.id as number)
          .del();
        if (opts.primary && row.is_primary) await promote(sc.db, row.contact_id);
        return 'handled' as const;
      },
    };
  }

  const email = blockLifecycle('crm_email', {
    primary: true,
    locationDefault: true,
    normalise: (v) => {
      if (typeof v.email === 'string') v.email = v.email.trim().toLowerCase();
      if (v.on_hold !== undefined && Number(v.on_hold) > 0 && !has(v.hold_date)) v.hold_date = new Date();
    },
    // A contact without a name takes its primary email as display and sort name.
    onPrimary: async (row, sc) => {
      const c = (await sc
        .db('crm_contact')
        .where('id', row.contact_id as number)
        .first('contact_type', 'first_name', 'middle_name', 'last_name')) as Row | undefined;
      if (c && c.contact_type === 'Individual' && !has(c.first_name) && !has(c.middle_name) && !has(c.last_name)) {
        await sc
          .db('crm_contact')
          .where('id', row.contact_id as number)
          .update({ display_name: row.email, sort_name: row.email });
      }
    },
  });
  entities.extend('Email', {
    ...email,
    // is_bulkmail is one per contact.
    async afterSave(row, sc) {
      await email.afterSave(row, sc);
      if (row.is_bulkmail)
        await sc
          .db('crm_email')
          .where('contact_id', row.contact_id as number)
          .whereNot('id', row.id as number)
          .update({ is_bulkmail: false });
    },
  });
  entities.extend(
    'Phone',
    blockLifecycle('crm_phone', {
      primary: true,
      locationDefault: true,
      normalise: (v) => {
        if (typeof v.phone === 'string') v.phone_numeric = v.phone.replace(/\D/g, '');
      },
    }),
  );
  entities.extend('Address', blockLifecycle('crm_address', { primary: true, locationDefault: true }));
  entities.extend('Website', blockLifecycle('crm_website', { primary: false, locationDefault: false }));
});
