/**
 * The Contact entity's lifecycle: get's showAll and name search, the rules a save applies (mandatory names
 * per type, sub-types, API key permission, employer, display and sort names), the primary email made on
 * create, the legacy home URL, delete to the trash unless skip_undelete, and restore.
 */
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { KernelError } from '../../kernel';
import { mandatoryMissing, invalid } from '../api3';
import type { Condition, EntityRegistry, SaveContext } from '../entity-core';
import { dupeCheck, employerId, saveHomeUrl } from './contact-checks';
import { individualDisplayName, individualSortName } from './names';
import { has, truthy, type Row } from './row-values';

/**
 * 16 random bytes as hex (a contact's `hash`), cut from a pooled buffer: a system call per contact was ~3% of
 * an import. The pool is never reused, so each hash is as random as `randomBytes(16)`.
 */
let randomPool = Buffer.alloc(0);
let randomOffset = 0;
function randomHex16(): string {
  if (randomOffset + 16 > randomPool.length) {
    randomPool = randomBytes(4096);
    randomOffset = 0;
  }
  randomOffset += 16;
  return randomPool.toString('hex', randomOffset - 16, randomOffset);
}

/** Lets Contact's reads and writes follow the contact rules (registered by entity-contact). */
export function extendContact(entities: EntityRegistry): void {
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

  entities.extend('Contact', {
    params: ['current_employer', 'dupe_check', 'email', 'home_url', 'home_URL', 'restore', 'skip_undelete'],
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
        values.hash = randomHex16();
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
      await saveHomeUrl(row, sc);
    },

    async beforeDelete(row, sc) {
      if (sc.principal.contactId !== null && Number(row.id) === sc.principal.contactId) {
        throw invalid('This contact record is linked to the currently logged in user account - and cannot be deleted.');
      }
      // APIv3 `restore`: the contact comes back from the trash instead.
      if (truthy(sc.params.restore)) {
        await sc.entities.save('Contact', { id: row.id, is_deleted: 0 });
        return 'handled';
      }
      if (truthy(sc.params.skip_undelete)) return;
      await sc
        .db('crm_contact')
        .where('id', row.id as number)
        .update({ is_deleted: true, modified_date: new Date() });
      return 'handled';
    },
  });
}
