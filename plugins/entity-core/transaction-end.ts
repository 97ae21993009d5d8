import type { Knex } from 'knex';

/**
 * Runs `fn` once the outermost transaction `db` is part of ends, committed or rolled back: a savepoint's own end
 * is not enough, since the transaction around it may still roll back what it saw.
 */
export function whenTransactionEnds(db: Knex, fn: () => void): void {
  let top = db as Knex.Transaction & { parentTransaction?: Knex.Transaction };
  while (top.parentTransaction) top = top.parentTransaction;
  top.executionPromise?.then(fn, fn);
}
