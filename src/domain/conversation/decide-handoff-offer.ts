import { offerHandoff } from '../handoffs/offer-handoff.ts';
import type { CommandOf } from './commands.ts';
import { activeAgent, openHandoffs } from './conversation-queries.ts';
import type { ConversationState } from './conversation-state.ts';
import { accept, refuse, type Decision } from './decision.ts';

/**
 * Offers work to the next agent: only an active agent hands off, only an artifact of this session can be
 * handed over, and the same open handoff is not offered twice (a retried consolidation must not offer the
 * PO two briefs' worth of work).
 */
export function decideOfferHandoff(
  command: CommandOf<'OfferHandoff'>,
  state: ConversationState,
): Decision {
  const { from_agent, to_agent, artifact_id } = command;
  if (activeAgent(state, from_agent) === undefined) {
    return refuse(
      `agent ${from_agent} is not active in this session; only an active agent hands off work`,
    );
  }
  if (
    artifact_id !== null &&
    !state.artifacts.some((artifact) => artifact.event_id === artifact_id)
  ) {
    return refuse(`artifact_id: no artifact event ${artifact_id} in this session`);
  }
  const duplicate = openHandoffs(state).find(
    (open) =>
      open.from_agent === from_agent &&
      open.to_agent === to_agent &&
      open.artifact_id === artifact_id,
  );
  if (duplicate !== undefined) {
    return refuse(
      `handoff ${duplicate.id} from ${from_agent} to ${to_agent} for this artifact is already ${duplicate.status}`,
    );
  }
  if (state.session_id === null)
    return refuse('the session has no events yet; nothing can be handed off');
  const offered = offerHandoff({
    id: command.handoff_id,
    session_id: state.session_id,
    from_agent,
    to_agent,
    artifact_id,
    actor: command.actor,
  });
  return offered.ok ? accept(offered.event) : refuse(offered.reason);
}
