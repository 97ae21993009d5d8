/** Hooks entity-contribute owns. */
import { defineHook } from '../../kernel';
import type { Entities } from '../entity-core';

/**
 * After a Pending contribution became Completed (`Contribution.completetransaction`), in its transaction: the
 * point where the records it paid for (memberships, participants, once they exist) are brought up to date.
 */
export const contributionCompleted = defineHook.series<[contribution: Record<string, unknown>, entities: Entities]>(
  'contribute.completed',
  'After a Pending contribution became Completed, in its transaction: update what it paid for',
);
