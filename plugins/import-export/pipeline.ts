/**
 * Two batches in flight (PostgreSQL, whose pool has connections to spare): while batch N's statements run on
 * one connection, batch N+1 is mapped, looked up and written on another, so the Node work of one batch fills
 * the other's waits on the database. N+1 still commits after N — it waits for N's commit before moving the job
 * on — so `resume` goes on after the last committed batch exactly as with one batch at a time.
 *
 * What N+1 must not do before N has committed, and the gate that keeps it from doing so:
 * - match a row on a key N's rows carry (an email, an external identifier): its look-up would miss the contact N
 *   creates, and two contacts would be made where one batch after the other makes one (or, for an external
 *   identifier, N+1's insert would wait on N's unique-index entry while N waits for N+1's commit);
 * - update a stored contact N updates (the rule's fill/update would read it before N's changes).
 * On either, N+1 waits for N's commit and looks its rows up again. It waits before its first write, holding no
 * lock N could need, so the two cannot deadlock; a batch written row by row after a failure waits for N first.
 *
 * What the gate cannot know: a lifecycle tap that writes one shared row at every save (a counter). If N+1 takes
 * that row's lock first, N waits on N+1's lock while N+1 waits for N's commit — a wait PostgreSQL cannot see as a
 * deadlock. So a pipelined batch's statements wait at most LOCK_TIMEOUT for a lock; a batch whose statement
 * times out is *contended*: it asks the batch after it to yield (roll back, releasing its locks, and write itself
 * again once this one has committed), waits for the batch before it, and writes itself again with no time limit;
 * the rest of the import writes one batch at a time.
 */
import type { Knex } from 'knex';
import { sqlState } from '../entity-core';
import type { Outcome } from './batch';
import { matchText } from './lookups';
import type { ImportRecord } from './records';

/** The longest a pipelined batch's statement waits for a lock before the batch counts as contended. */
const LOCK_TIMEOUT = '10s';

/** Shared by an import's batches: how many may be in flight (1 once two have contended for a lock). */
export interface Pipeline {
  lanes: number;
}

/** Thrown in a batch asked to yield to the batch before it: its transaction rolls back, and it is written again. */
export class YieldToEarlier extends Error {
  constructor() {
    super('the batch yields to the batch before it');
  }
}

/** Whether the database stopped a statement for waiting on a lock past `lock_timeout` (SQLSTATE 55P03). */
export const isLockTimeout = (err: unknown): boolean => sqlState(err) === '55P03';

/** What a batch in flight claims: the keys its rows carry and the stored contacts its look-up matched. */
export class BatchClaim {
  readonly keys = new Set<string>();
  readonly ids = new Set<number>();
  /** Settles when `ids` is complete (the batch's last look-up has run, or its transaction has ended). */
  readonly looked: Promise<void>;
  /** The batch's transaction: resolves with its rows' outcomes when it has committed, rejects when it failed. */
  committed: Promise<Outcome[]> = Promise.resolve([]);
  private settle!: () => void;
  private waited = false;
  /** Batches are written two at once: its transaction waits for a lock at most LOCK_TIMEOUT. */
  private pipelined: boolean;
  /** The batch started while this one was in flight, if any (asked to yield when this one contends). */
  private later?: BatchClaim;
  private askYield!: () => void;
  private readonly yieldRequest = new Promise<void>((resolve) => (this.askYield = resolve));

  constructor(
    records: ImportRecord[],
    private readonly pipeline: Pipeline,
    /** The batch still in flight when this one started, if any (let go when this one ends). */
    private earlier?: BatchClaim,
  ) {
    this.pipelined = pipeline.lanes > 1;
    if (earlier) earlier.later = this;
    this.looked = new Promise((resolve) => (this.settle = resolve));
    // Both keys whatever the rule matches on: a repeated external identifier clashes on its unique index too.
    for (const record of records) {
      if (record.email) this.keys.add(`email:${matchText(record.email)}`);
      const external = record.contact.external_identifier;
      if (external) this.keys.add(`external:${matchText(external)}`);
    }
  }

  /** Called by the batch's writer after each look-up: true when it waited for the earlier batch (look again). */
  readonly gate = async (matched: number[]): Promise<boolean> => {
    for (const id of matched) this.ids.add(id);
    const earlier = this.earlier;
    if (earlier && !this.waited) {
      await earlier.looked;
      if (overlaps(this.keys, earlier.keys) || matched.some((id) => earlier.ids.has(id))) {
        await this.afterEarlier();
        return true; // `ids` complete after the look-up made again (the next call)
      }
    }
    this.settle();
    return false;
  };

  /**
   * Waits for the earlier batch's commit (throws when it failed: this batch must not commit then either), or throws
   * {@link YieldToEarlier} when the earlier batch asks this one to yield.
   */
  async afterEarlier(): Promise<void> {
    this.waited = true;
    const earlier = this.earlier;
    if (!earlier) return;
    const yielding = this.yieldRequest.then(() => {
      throw new YieldToEarlier();
    });
    yielding.catch(() => undefined); // the race below reports it
    await Promise.race([earlier.committed, yielding]);
  }

  /** This batch yielded: waits for the earlier batch's commit, then writes itself again with no lock time limit. */
  async afterYield(): Promise<void> {
    this.pipelined = false;
    await this.earlier?.committed;
  }

  /**
   * A statement of this batch waited past LOCK_TIMEOUT: the batch after it yields, the one before it commits first,
   * and this one writes again waiting as long as a lock takes; the rest of the import writes one batch at a time.
   */
  async contended(trx: Knex.Transaction): Promise<void> {
    this.pipeline.lanes = 1;
    this.later?.askYield();
    await this.afterEarlier();
    this.pipelined = false;
    await trx.raw('set local lock_timeout = 0');
  }

  /** First statement of the batch's transaction. */
  async begin(trx: Knex.Transaction): Promise<void> {
    if (this.pipelined) await trx.raw(`set local lock_timeout = '${LOCK_TIMEOUT}'`);
  }

  /** The batch's transaction has ended: a later batch waiting on `looked` goes on. */
  ended(): void {
    this.settle();
    // Else each batch would hold the one before it, and so every batch of the import (~100 MB at 1M rows).
    this.earlier = undefined;
    this.later = undefined;
  }
}

function overlaps(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const [small, large] = a.size < b.size ? [a, b] : [b, a];
  for (const key of small) if (large.has(key)) return true;
  return false;
}
