import {
  dependencyTurnsOwed,
  devBlocks,
  ruleRevisionTurnsOwed,
  viewChangeTurnsOwed,
} from '../agents/index.ts';
import {
  EVENT_TYPES,
  type ConversationState,
  type SessionEvent,
} from '../domain/conversation/index.ts';
import { rejectionTurnsOwed } from '../domain/handoffs/index.ts';
import { BLOCK_EVENT_TYPES, LINE_EVENT_TYPES } from '../domain/line/index.ts';

/** Why a lane owes a new turn; each is read from the log alone (ADR 0345). */
export type OwedReason =
  /** A message of the person's to the agent that no turn of it has answered yet: one turn per message. */
  | 'message'
  /** Activated by an accepted handoff, no turn of its own since. */
  | 'kickoff'
  /** A standing rejection of a handoff it sent, newer than its last turn (ADR 0160). */
  | 'rejection'
  /** `dev.unblocked` (a contract change or an answer resolved its block), newer than the dev's last turn. */
  | 'unblocked'
  /** The Arquiteto: a dev's block it has had no turn for. */
  | 'block'
  /** `module.merge_failed` (a conflict or a failing integration check), newer than the dev's last turn. */
  | 'merge_failed'
  /** A dev: a contracts or map version changed its view after its last turn started (ADR 0340). */
  | 'view_changed'
  /** A dev: a dependency's code was merged into its branch (or could not be) after its last turn (ADR 0343). */
  | 'dependency_merged'
  /** The PO or the Arquiteto: another agent revised a business rule after its last turn started (ADR 0421). */
  | 'rule_revised';

export interface OwedTurn {
  agent: string;
  reasons: OwedReason[];
}

type Payload = Record<string, unknown> | null;
const field = (event: SessionEvent, name: string): unknown => (event.payload as Payload)?.[name];

/**
 * Every new turn the session's lanes owe, derived from the log alone — the one derivation start-up, a lane's
 * pick-up and every prompt path share, so a turn owed is run whether it had started, was waiting for a turn
 * slot, or was queued in a process that died. Each agent once (those owed a message first, then in the order
 * of what they owe), only those with a runtime here. A turn in progress is not counted: the lane goes on with it first, and what it
 * still owes after it ends (a message stored during it) is owed then.
 *
 * Messages are counted, not flagged (one message = one turn): each turn started after a message answers the
 * oldest unanswered one, so two messages stored before one turn started still owe a second turn.
 * Every other reason is a flag: any turn of the agent started after the event has seen it. Pure.
 */
export function owedTurns(
  state: ConversationState,
  events: readonly SessionEvent[],
  hasRuntime: (agent: string) => boolean,
): OwedTurn[] {
  const owed = new Map<string, Set<OwedReason>>();
  const owe = (agent: string, reason: OwedReason) => {
    if (!hasRuntime(agent)) return;
    const reasons = owed.get(agent) ?? new Set<OwedReason>();
    reasons.add(reason);
    owed.set(agent, reasons);
  };
  const lastStart = new Map<string, number>();
  const unanswered = new Map<string, number>();
  const flagged: Array<{ agent: string; seq: number; reason: OwedReason }> = [];
  for (const event of events) {
    const agent = field(event, 'agent');
    if (event.type === EVENT_TYPES.chatMessage) {
      const to = field(event, 'to');
      if (typeof to === 'string') unanswered.set(to, (unanswered.get(to) ?? 0) + 1);
    } else if (event.type === EVENT_TYPES.turnStarted && typeof agent === 'string') {
      lastStart.set(agent, event.seq);
      const waiting = unanswered.get(agent) ?? 0;
      if (waiting > 0) unanswered.set(agent, waiting - 1);
    } else if (event.type === BLOCK_EVENT_TYPES.unblocked && typeof agent === 'string') {
      flagged.push({ agent, seq: event.seq, reason: 'unblocked' });
    } else if (event.type === LINE_EVENT_TYPES.mergeFailed) {
      const module = field(event, 'module');
      if (typeof module === 'string')
        flagged.push({ agent: `dev:${module}`, seq: event.seq, reason: 'merge_failed' });
    }
  }
  for (const active of state.active_agents)
    if (active.handoff_id !== null)
      flagged.push({ agent: active.agent, seq: active.seq, reason: 'kickoff' });
  flagged.sort((a, b) => a.seq - b.seq);
  for (const [agent, waiting] of unanswered) if (waiting > 0) owe(agent, 'message');
  for (const { agent, seq, reason } of flagged)
    if ((lastStart.get(agent) ?? 0) < seq) owe(agent, reason);
  for (const agent of rejectionTurnsOwed(events)) owe(agent, 'rejection');
  for (const agent of viewChangeTurnsOwed(events)) owe(agent, 'view_changed');
  for (const agent of dependencyTurnsOwed(events)) owe(agent, 'dependency_merged');
  for (const agent of ruleRevisionTurnsOwed(events)) owe(agent, 'rule_revised');
  if (devBlocks(events).some((block) => block.status === 'open' && block.arquiteto_turns === 0))
    owe('arquiteto', 'block');
  return [...owed].map(([agent, reasons]) => ({ agent, reasons: [...reasons] }));
}

/** What `agent`'s lane owes as new turns (empty when nothing). */
export function owedBy(
  state: ConversationState,
  events: readonly SessionEvent[],
  agent: string,
  hasRuntime: (agent: string) => boolean,
): OwedReason[] {
  return owedTurns(state, events, (slug) => slug === agent && hasRuntime(slug))[0]?.reasons ?? [];
}
