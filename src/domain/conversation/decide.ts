import type { ConversationCommand } from './commands.ts';
import type { ConversationState } from './conversation-state.ts';
import { decideResolveAction } from './decide-actions.ts';
import {
  decideActivateAgent,
  decideFailTurn,
  decidePostMessage,
  decideStartTurn,
} from './decide-agents.ts';
import { decideOfferHandoff } from './decide-handoff-offer.ts';
import { decideConfirmReadiness, decideRecordProductBrief } from './decide-readiness.ts';
import type { Decision } from './decision.ts';
import {
  decideRegenerateAnswer,
  decideRequestStop,
  decideRetryTurn,
  decideStopTurn,
} from './turn-control.ts';

/**
 * The conversation decider: given the session's state (from `rehydrate`), the events a command appends or
 * the reason it is refused. Pure: ids and the clock come in with the command or from the store.
 * Append the events with `state.last_seq` as the expected version, so a concurrent append makes the store
 * refuse and the caller decides again on fresh state.
 */
export function decide(command: ConversationCommand, state: ConversationState): Decision {
  switch (command.type) {
    case 'ActivateAgent':
      return decideActivateAgent(command, state);
    case 'StartTurn':
      return decideStartTurn(command, state);
    case 'FailTurn':
      return decideFailTurn(command, state);
    case 'ConfirmReadiness':
      return decideConfirmReadiness(command, state);
    case 'RecordProductBrief':
      return decideRecordProductBrief(command, state);
    case 'OfferHandoff':
      return decideOfferHandoff(command, state);
    case 'ApproveAction':
    case 'DenyAction':
      return decideResolveAction(command, state);
    case 'PostMessage':
      return decidePostMessage(command, state);
    case 'StopTurn':
      return decideStopTurn(command, state);
    case 'RequestStop':
      return decideRequestStop(command, state);
    case 'RetryTurn':
      return decideRetryTurn(command, state);
    case 'RegenerateAnswer':
      return decideRegenerateAnswer(command, state);
  }
}
