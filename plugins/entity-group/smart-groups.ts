/**
 * Smart groups: a group with `saved_search_id` has as members the contacts its saved search's
 * `api_params.where` (APIv4 clauses over Contact) matches, resolved at query time: Contact.get's `group`
 * filter puts those conditions in the query. The criteria of every smart group are kept in memory, reloaded
 * when a Group or SavedSearch is written (in the writing transaction) and when another instance announces a
 * change on the change bus.
 */
import { invalid } from '../api3';
import { V4_OPERATORS, type CompiledEntity, type Condition, type Entities, type Operator } from '../entity-core';

export const SMART_GROUPS_TOPIC = 'smart-groups';
type Row = Record<string, unknown>;

interface SmartGroup {
  id: number;
  name: string;
  title: string;
  where: Condition[];
}

/** No contact: the criteria of a saved search that cannot be read. */
const NOBODY: Condition[] = [{ path: 'id', op: 'IS NULL' }];

/** APIv4 where clauses (`[field, op, value]`, `[OR|AND|NOT, [clauses]]`) as store conditions over Contact. */
export function criteria(contact: CompiledEntity, where: unknown, depth = 0): Condition[] {
  if (where === undefined || where === null) return [];
  if (!Array.isArray(where) || depth > 8) throw invalid('api_params.where must be a list of APIv4 clauses');
  return where.map((clause: unknown): Condition => {
    if (!Array.isArray(clause) || typeof clause[0] !== 'string') throw invalid('Invalid clause in api_params.where');
    const [head, second, value] = clause as [string, unknown, unknown];
    const group = head.toUpperCase();
    if (group === 'OR') return { or: criteria(contact, second, depth + 1) };
    if (group === 'AND') return { and: criteria(contact, second, depth + 1) };
    if (group === 'NOT') return { not: { and: criteria(contact, second, depth + 1) } };
    const op = String(second ?? '=').toUpperCase() as Operator;
    if (!contact.lookup.has(head.split('.')[0]) || head.includes(':'))
      throw invalid(`Unknown Contact field in api_params.where: ${head}`);
    if (!V4_OPERATORS.includes(op)) throw invalid(`Unknown operator in api_params.where: ${String(second)}`);
    return { path: head, op, value };
  });
}

export class SmartGroups {
  private groups: SmartGroup[] = [];
  /** True while this instance announces its own write (its in-transaction load is the fresher one). */
  muted = false;

  constructor(private readonly contact: () => CompiledEntity) {}

  /** Reads every smart group and its saved search (through the caller's session). */
  async load(entities: Entities): Promise<void> {
    const rows = await entities.get('Group', {
      where: [{ path: 'saved_search_id', op: 'IS NOT NULL' }],
      select: ['id', 'name', 'title', 'saved_search_id'],
    });
    const ids = rows.map((r) => Number(r.saved_search_id));
    const searches = ids.length
      ? await entities.get('SavedSearch', {
          where: [{ path: 'id', op: 'IN', value: ids }],
          select: ['id', 'api_params'],
        })
      : [];
    const byId = new Map(searches.map((s) => [Number(s.id), s.api_params as Row | null]));
    this.groups = rows.map((r) => ({
      id: Number(r.id),
      name: String(r.name),
      title: String(r.title),
      where: this.whereOf(byId.get(Number(r.saved_search_id))),
    }));
  }

  private whereOf(params: Row | null | undefined): Condition[] {
    try {
      const parsed = typeof params === 'string' ? (JSON.parse(params) as Row) : params;
      return criteria(this.contact(), parsed?.where);
    } catch {
      return NOBODY;
    }
  }

  /**
   * Each smart group's members as a condition on a contact id (`ref`, e.g. Email's `contact_id`): its
   * criteria, less the contacts Removed from it.
   */
  membersBy(ref: string): Array<{ id: number; members: Condition }> {
    return this.groups.map((group) => ({
      id: group.id,
      members: { exists: { entity: 'Contact', field: 'id', ref, where: smartMembers(group) } },
    }));
  }

  /** The smart groups an item of Contact.get's `group` filter names (an id, a name or a title). */
  matching(item: unknown): SmartGroup[] {
    const text = String(item).trim();
    return this.groups.filter((g) =>
      /^\d+$/.test(text) ? g.id === Number(text) : g.name === text || g.title === text,
    );
  }
}

/** A smart group's members as conditions on Contact: its criteria, and not Removed from it. */
export function smartMembers(group: { id: number; where: Condition[] }): Condition[] {
  const removed: Condition[] = [
    { path: 'group_id', op: '=', value: group.id },
    { path: 'status', op: '=', value: 'Removed' },
  ];
  return [...group.where, { not: { exists: { entity: 'GroupContact', field: 'contact_id', where: removed } } }];
}
