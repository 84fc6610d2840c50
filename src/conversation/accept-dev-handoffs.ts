import type { Handoff } from '../domain/handoffs/index.ts';
import { PERSON_ACTOR } from '../domain/conversation/index.ts';
import { findSession } from '../store/index.ts';
import type { ConversationDependencies, Refusal } from './conversation-dependencies.ts';
import { refusal } from './conversation-dependencies.ts';
import { transitionHandoff } from './handoff-transition.ts';
import { startPendingKickoffs } from './start-pending-kickoffs.ts';

/**
 * The person's "accept all the dev handoffs": accepts every offered handoff addressed to a `dev:<module>`
 * agent of the session, in the order offered (each activates its dev), then starts the kickoffs, each in its
 * dev's lane: side by side up to the turn slots, the rest in the order offered. The person accepts the same handoffs one by one through `/api/handoffs/:id/accept`.
 */
export async function acceptDevHandoffs(
  dependencies: ConversationDependencies,
  sessionId: string,
  actor = PERSON_ACTOR,
): Promise<{ ok: true; accepted: Handoff[] } | Refusal> {
  if ((await findSession(dependencies.database, sessionId)) === null)
    return refusal(404, 'not_found', `No session with id ${sessionId}.`);
  // The log's order (the order offered: dependencies first), not the table's: rows offered in one
  // transaction share their created_at.
  const offered = (await dependencies.views.load(sessionId)).state.handoffs.filter(
    (handoff) => handoff.status === 'offered' && handoff.to_agent.startsWith('dev:'),
  );
  const accepted: Handoff[] = [];
  for (const handoff of offered) {
    const outcome = await transitionHandoff(dependencies, handoff.id, { type: 'accept', actor });
    if (outcome.ok) accepted.push(outcome.handoff);
  }
  if (accepted.length > 0) void startPendingKickoffs(dependencies, sessionId);
  return { ok: true, accepted };
}
