import { decide, foldEvents } from '../domain/conversation/index.ts';
import {
  transitionHandoff as transition,
  type Handoff,
  type HandoffCommand,
} from '../domain/handoffs/index.ts';
import { lockHandoff, updateHandoffStatus } from '../store/index.ts';
import type { ConversationDependencies, Refusal } from './conversation-dependencies.ts';
import { refusal } from './conversation-dependencies.ts';
import { handleCommand } from './session-command.ts';

/**
 * Moves a handoff on (`offered → accepted → completed`, `offered → rejected`): the row and its
 * `handoff.<status>` event in one transaction; an invalid transition is a 409 with the reason. Accepting
 * also activates the receiving agent (`agent.activated`), by the activation rule, in the same transaction.
 */
export async function transitionHandoff(
  dependencies: ConversationDependencies,
  handoffId: string,
  command: HandoffCommand,
): Promise<{ ok: true; handoff: Handoff } | Refusal> {
  const found = await dependencies.database.query<{ session_id: string }>(
    'select session_id from handoffs where id = $1',
    [handoffId],
  );
  const sessionId = found.rows[0]?.session_id;
  if (sessionId === undefined) return refusal(404, 'not_found', `No handoff with id ${handoffId}.`);
  // In one transaction with the expected version: a lane that appended meanwhile rolls the row back with
  // it, and the handler decides again.
  const result = await handleCommand(dependencies, sessionId, {
    what: `the handoff transition (${command.type})`,
    transactional: true,
    decide: async (view, transaction) => {
      const handoff = await lockHandoff(transaction, handoffId);
      if (handoff === null) return refusal(404, 'not_found', `No handoff with id ${handoffId}.`);
      const moved = transition(handoff, command);
      if (!moved.ok) return refusal(409, 'invalid_transition', moved.reason);
      await updateHandoffStatus(transaction, moved.handoff);
      const events = [moved.event];
      if (command.type === 'accept') {
        const afterAccept = foldEvents(view.state, [
          {
            ...moved.event,
            id: 'pending',
            session_id: sessionId,
            seq: view.state.last_seq + 1,
            created_at: new Date().toISOString(),
          },
        ]);
        const activation = decide(
          { type: 'ActivateAgent', agent: moved.handoff.to_agent, actor: 'system' },
          afterAccept,
        );
        if (activation.ok) events.push(...activation.events);
      }
      return { ok: true, events, value: moved.handoff };
    },
  });
  await dependencies.views.load(sessionId);
  return result.ok ? { ok: true, handoff: result.value } : result;
}
