/** What a completed contribution does to events: its Pending participants become Registered. */
import type { Entities } from '../entity-core';

export const REGISTERED = 1;

type Row = Record<string, unknown>;

/** Taps `contribute.completed`: participants paid by the contribution and in a Pending-class status → Registered. */
export async function registerPaidParticipants(contribution: Row, entities: Entities): Promise<void> {
  const payments = await entities.get('ParticipantPayment', {
    where: { contribution_id: Number(contribution.id) },
    select: ['participant_id'],
  });
  if (!payments.length) return;
  const pending = await entities.get('Participant', {
    where: [
      { path: 'id', op: 'IN', value: payments.map((payment) => Number(payment.participant_id)) },
      { path: 'status_id.class', op: '=', value: 'Pending' },
    ],
    select: ['id'],
  });
  for (const participant of pending) await entities.save('Participant', { id: participant.id, status_id: REGISTERED });
}
