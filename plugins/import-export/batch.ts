/**
 * One batch of an import, inside the caller's transaction: names resolved, the duplicate rule applied with
 * one query, new contacts and their blocks, group memberships and tags created in a few multi-row INSERTs
 * (`saveMany`), matched contacts updated or filled one by one. A row the data refuses is rejected with its reason.
 */
import type { Knex } from 'knex';
import type { Entities } from '../entity-core';
import { findMatches, matchKey, resolveNames, type Lookups, type MatchOn } from './lookups';
import type { ImportRecord } from './records';
import { updateContact } from './update';

export type Rule = 'skip' | 'update' | 'fill';

export interface Outcome {
  row: number;
  result: 'created' | 'updated' | 'skipped' | 'rejected';
  reason?: string;
}

export interface Prepared {
  record: ImportRecord;
  groups: number[];
  tags: number[];
}

export interface BatchRules {
  rule: Rule;
  on: MatchOn;
  lookups: Lookups;
  /** Told the stored contacts each look-up matched; true when it waited for an earlier batch (pipeline.ts). */
  gate?: (matched: number[]) => Promise<boolean>;
}

type Row = Record<string, unknown>;

function contactInput(record: ImportRecord): Row {
  const input: Row = { ...record.contact, ...record.custom };
  const named = ['first_name', 'last_name', 'display_name'].some((field) => input[field]);
  // An individual known only by an email is shown by it (what Contact's own rule does, without a query per row).
  if (input.contact_type === 'Individual' && !named && record.email)
    input.display_name = input.sort_name = record.email.toLowerCase();
  return input;
}

/** New contacts with everything the rows give them: a fixed number of statements per batch. */
async function createAll(entities: Entities, creates: Prepared[]): Promise<number[]> {
  if (!creates.length) return [];
  const stored = await entities.saveMany(
    'Contact',
    creates.map((p) => contactInput(p.record)),
  );
  const ids = stored.map((row) => Number(row.id));
  const each = (fn: (p: Prepared, id: number) => Row[]) => creates.flatMap((p, i) => fn(p, ids[i]));
  const children: Array<[string, Row[]]> = [
    ['Email', each(({ record }, id) => (record.email ? [{ contact_id: id, email: record.email, is_primary: 1 }] : []))],
    ['Phone', each(({ record }, id) => (record.phone ? [{ contact_id: id, phone: record.phone, is_primary: 1 }] : []))],
    [
      'Address',
      each(({ record }, id) => (record.address ? [{ ...record.address, contact_id: id, is_primary: 1 }] : [])),
    ],
    ['GroupContact', each((p, id) => p.groups.map((group) => ({ group_id: group, contact_id: id, status: 'Added' })))],
    [
      'EntityTag',
      each((p, id) => p.tags.map((tag) => ({ entity_table: 'civicrm_contact', entity_id: id, tag_id: tag }))),
    ],
  ];
  // One after the other: a pg client runs one query at a time, and queuing a second on it is deprecated (pg 9
  // refuses it). The overlap of Node work and database work comes from the next batch instead (pipeline.ts).
  for (const [entity, rows] of children) if (rows.length) await entities.saveMany(entity, rows);
  return ids;
}

export async function writeBatch(
  db: Knex,
  entities: Entities,
  records: ImportRecord[],
  rules: BatchRules,
): Promise<Outcome[]> {
  const outcomes = new Map<number, Outcome>();
  const done = (row: number, result: Outcome['result'], reason?: string) =>
    outcomes.set(row, reason ? { row, result, reason } : { row, result });
  const ready: Prepared[] = [];
  for (const record of records) {
    const names = resolveNames(record, rules.lookups);
    if (typeof names === 'string') done(record.row, 'rejected', names);
    else ready.push({ record, ...names });
  }
  const keys = [...new Set(ready.map((item) => matchKey(item.record, rules.on)).filter((k): k is string => !!k))];
  let matches = await findMatches(db, rules.on, keys);
  if (await rules.gate?.([...matches.values()].flat())) matches = await findMatches(db, rules.on, keys);
  const creates: Prepared[] = [];
  const updates: Array<[Prepared, number | Prepared]> = [];
  const firstWith = new Map<string, Prepared>();
  for (const item of ready) {
    const key = matchKey(item.record, rules.on);
    const ids = key ? matches.get(key) : undefined;
    const earlier = key ? firstWith.get(key) : undefined;
    if (ids && ids.length > 1)
      done(
        item.record.row,
        'rejected',
        `the duplicate rule (${rules.on}) matches ${ids.length} contacts: ${ids.join(', ')}`,
      );
    else if ((ids || earlier) && rules.rule === 'skip') done(item.record.row, 'skipped');
    else if (ids) updates.push([item, ids[0]]);
    else if (earlier) updates.push([item, earlier]);
    else {
      creates.push(item);
      if (key) firstWith.set(key, item);
    }
  }
  const ids = await createAll(entities, creates);
  const idOf = new Map(creates.map((item, i) => [item, ids[i]]));
  for (const item of creates) done(item.record.row, 'created');
  // Rows after the first with the same key in this batch update the contact that one created.
  for (const [item, target] of updates) {
    await updateContact(entities, item, typeof target === 'number' ? target : idOf.get(target)!, rules.rule);
    done(item.record.row, 'updated');
  }
  return records.map((record) => outcomes.get(record.row)!);
}
