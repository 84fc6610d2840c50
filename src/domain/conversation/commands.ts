import type { GreetingLanguage } from './greetings.ts';
/**
 * Commands the conversation decides on without I/O. Imperative names; `actor` is who asks.
 *
 * - `ActivateAgent` — start an agent in the session (activation rule over the session's handoffs).
 * - `StartTurn` / `FailTurn` — open a model turn / close one that ended without a response.
 * - `ConfirmReadiness` — the person's "Estou pronto para produzir".
 * - `RecordProductBrief` — append the brief produced by the consolidation turn.
 * - `OfferHandoff` — offer the work to the next agent, pointing at an artifact of the session.
 * - `ApproveAction` / `DenyAction` — the person's answer to a proposed action.
 * - `PostMessage` — the person's message to an active agent (or to nobody yet).
 * - `StopTurn` / `RetryTurn` / `RegenerateAnswer` — the person's control over turns (ADR 0220).
 */
export type ConversationCommand =
  | {
      readonly type: 'ActivateAgent';
      readonly agent: string;
      readonly actor: string;
      /** The language of the agent's greeting, when it greets (the person's Accept-Language); English when absent. */
      readonly language?: GreetingLanguage;
    }
  | {
      readonly type: 'StartTurn';
      readonly agent: string;
      readonly turn_id: string;
      readonly kind: 'message' | 'consolidation';
    }
  | { readonly type: 'FailTurn'; readonly turn_id: string; readonly reason: string }
  | { readonly type: 'ConfirmReadiness'; readonly actor: string }
  | { readonly type: 'RecordProductBrief'; readonly agent: string; readonly brief: unknown }
  | {
      readonly type: 'OfferHandoff';
      readonly handoff_id: string;
      readonly from_agent: string;
      readonly to_agent: string;
      readonly artifact_id: string | null;
      readonly actor: string;
    }
  | { readonly type: 'ApproveAction'; readonly action_id: string; readonly actor: string }
  | {
      readonly type: 'DenyAction';
      readonly action_id: string;
      readonly actor: string;
      readonly reason?: string;
    }
  | {
      readonly type: 'PostMessage';
      readonly text: string;
      readonly to: string | null;
      readonly actor?: string;
    }
  | {
      readonly type: 'StopTurn';
      readonly turn_id: string;
      /** What the turn streamed before it stopped. */
      readonly text: string;
      readonly actor?: string;
    }
  | { readonly type: 'RequestStop'; readonly turn_id: string; readonly actor?: string }
  | { readonly type: 'RetryTurn'; readonly turn_id: string; readonly actor?: string }
  | {
      readonly type: 'RegenerateAnswer';
      readonly turn_id: string;
      readonly new_turn_id: string;
      readonly actor?: string;
    };

/** The command of a given `type`. */
export type CommandOf<Type extends ConversationCommand['type']> = Extract<
  ConversationCommand,
  { type: Type }
>;
