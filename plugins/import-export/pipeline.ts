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
 */
import type { Knex } from 'knex';
import type { ImportRecord } from './records';

/**
 * The longest a pipelined batch's statement waits for a lock. The gate leaves the two batches nothing to wait on
 * each other for; a lifecycle tap that writes one row every save writes (a counter) would, and N waiting on N+1's
 * lock while N+1 waits for N's commit would hang for ever: it stops instead (the row is rejected with the
 * reason). A deployment with such a tap sets `batchesInFlight` to 1.
 */
export const LOCK_TIMEOUT = '30s';

/** What a batch in flight claims: the keys its rows carry and the stored contacts its look-up matched. */
export class BatchClaim {
  readonly keys = new Set<string>();
  readonly ids = new Set<number>();
  /** Settles when `ids` is complete (the batch's last look-up has run, or its transaction has ended). */
  readonly looked: Promise<void>;
  /** The batch's transaction: resolves when it has committed, rejects when it failed. */
  committed: Promise<unknown> = Promise.resolve();
  private settle!: () => void;
  private waited = false;

  constructor(
    records: ImportRecord[],
    /** Batches are written two at once (its transaction waits for a lock at most LOCK_TIMEOUT). */
    readonly pipelined: boolean,
    /** The batch still in flight when this one started, if any (let go when this one ends). */
    private earlier?: BatchClaim,
  ) {
    this.looked = new Promise((resolve) => (this.settle = resolve));
    for (const record of records) {
      if (record.email) this.keys.add(`email:${record.email.trim().toLowerCase()}`);
      const external = record.contact.external_identifier;
      if (external) this.keys.add(`external:${String(external).trim().toLowerCase()}`);
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

  /** Waits for the earlier batch's commit (throws when it failed: this batch must not commit then either). */
  async afterEarlier(): Promise<void> {
    this.waited = true;
    await this.earlier?.committed;
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
  }
}

function overlaps(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const [small, large] = a.size < b.size ? [a, b] : [b, a];
  for (const key of small) if (large.has(key)) return true;
  return false;
}
