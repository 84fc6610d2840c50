import type { Handoff } from '../handoffs/handoff.ts';
import type { BusinessRule } from '../artifacts/business-rule.ts';
import type { ProductBrief } from '../artifacts/product-brief.ts';
import type { RecordedToolCall, TurnKind } from './event-payloads.ts';
import type { PersonQuestion } from './person-questions.ts';
import type { Decision } from '../artifacts/decision.ts';

/**
 * One message of the history given to the model. `tool` entries hold a call and its result together;
 * the provider adapter renders them as its own call + result pair.
 */
export type ChatHistoryEntry =
  | {
      readonly role: 'user';
      readonly content: string;
      /** The agent the person wrote to; null in logs from before lanes, read as "every agent". */
      readonly to: string | null;
      readonly seq: number;
      readonly event_id: string;
    }
  | {
      readonly role: 'assistant';
      readonly agent: string;
      readonly content: string;
      /** Calls the model made with this text; each is answered by a later `tool` entry. */
      readonly tool_calls?: readonly RecordedToolCall[];
      readonly seq: number;
      readonly event_id: string;
    }
  | {
      readonly role: 'tool';
      readonly agent: string;
      readonly tool_call_id: string;
      readonly tool: string;
      readonly args: unknown;
      readonly ok: boolean;
      readonly content: string;
      readonly seq: number;
      readonly event_id: string;
    };

export type ActiveAgent = {
  readonly agent: string;
  readonly handoff_id: string | null;
  readonly seq: number;
};

export type RecordedBusinessRule = BusinessRule & {
  readonly event_id: string;
  readonly seq: number;
  readonly origin: readonly number[];
  /** The event id of the version this one revised (`revise_rule`); null for a rule as first recorded. */
  readonly supersedes: string | null;
  /** Who recorded it: Criativo, or the agent the person told of the change. */
  readonly recorded_by: string;
};

/** A business rule a later version replaced: kept, marked, never shown to a model as current. */
export type SupersededBusinessRule = RecordedBusinessRule & {
  /** The event id of the version that replaced it. */
  readonly superseded_by: string;
};

/** A decision of the session, with who recorded it and the conversation it came from. */
export type RecordedDecision = Decision & {
  readonly event_id: string;
  readonly seq: number;
  readonly recorded_by: string;
  readonly origin: readonly number[];
};

export type RecordedProductBrief = {
  readonly event_id: string;
  readonly seq: number;
  readonly data: ProductBrief;
};

/** Any artifact of the session, whatever its type: what a handoff's `artifact_id` may point to. */
export type RecordedArtifact = {
  readonly event_id: string;
  readonly seq: number;
  readonly type: string;
};

/** The latest `readiness.confirmed`: readiness is confirmed again after the PO's handoff is rejected (ADR 0160). */
export type Readiness =
  | { readonly confirmed: false }
  | {
      readonly confirmed: true;
      readonly event_id: string;
      readonly seq: number;
      readonly confirmed_at: string;
    };

/** The turn a lane is running: each agent of the session is a lane with at most one turn in progress. */
export type TurnInProgress = {
  readonly turn_id: string;
  readonly agent: string;
  readonly kind: TurnKind;
  readonly seq: number;
};

/**
 * How a lane's last turn ended: what Retry and Regenerate act on (ADR 0220). One entry per agent whose turn
 * ended, replaced when its next turn ends.
 */
export type LaneEnd = {
  readonly agent: string;
  readonly turn_id: string;
  readonly kind: TurnKind;
  /** Seq of the turn's `turn.started`. */
  readonly started_seq: number;
  readonly outcome: 'answered' | 'failed' | 'stopped' | 'limit_reached';
  /** The event whose text is the turn's answer (`agent.response`, or `turn.stopped` with text); else null. */
  readonly answer_event_id: string | null;
  /** Seq of the event that ended the turn. */
  readonly ended_seq: number;
  /** Whether the turn called tools: their effects cannot be taken back, so it is not answered again. */
  readonly used_tools: boolean;
};

/** The last `chat.message` that named its addressee: who the person is talking to, and since when. */
export type Addressed = { readonly agent: string; readonly seq: number };

/**
 * A proposed action not yet settled: `proposed` waits for the person; `approved` waits for its run to be
 * recorded (`tool.completed`). A denied or completed action is no longer pending.
 */
export type PendingAction = {
  readonly action_id: string;
  readonly tool_call_id: string | null;
  readonly status: 'proposed' | 'approved';
  readonly agent: string;
  /** The turn that proposed it; null in logs from before lanes. */
  readonly turn_id: string | null;
  readonly tool: string;
  readonly args: unknown;
  readonly seq: number;
};

/** An event the fold could not read (unparseable or too new a payload): kept visible, never silently lost. */
export type SkippedEvent = { readonly seq: number; readonly type: string; readonly reason: string };

/** Everything the conversation rules know about one session, rebuilt by folding its events. */
export type ConversationState = {
  readonly session_id: string | null;
  /** Seq of the last folded event; 0 before any. Also the expected version for the next append. */
  readonly last_seq: number;
  readonly active_agents: readonly ActiveAgent[];
  readonly history: readonly ChatHistoryEntry[];
  /** The session's business rules as they stand: one per rule, its latest version. */
  readonly business_rules: readonly RecordedBusinessRule[];
  /** The versions a revision replaced, in the order they were replaced. */
  readonly superseded_rules: readonly SupersededBusinessRule[];
  /** The current product brief: the highest `data.version`, ties broken by seq (ADR 0160). */
  readonly product_brief: RecordedProductBrief | null;
  /** Every product brief of the session, old versions included, in log order. */
  readonly product_briefs: readonly RecordedProductBrief[];
  readonly artifacts: readonly RecordedArtifact[];
  readonly readiness: Readiness;
  /** Every handoff seen in `handoff.*` events, at its latest status, in the order first offered. */
  readonly handoffs: readonly Handoff[];
  /** One entry per lane with a turn in progress (at most one per agent), in the order they started. */
  readonly turns_in_progress: readonly TurnInProgress[];
  /** How each lane's last ended turn ended (ADR 0220). */
  readonly lane_ends: readonly LaneEnd[];
  readonly last_addressed: Addressed | null;
  /** Seq of the session's `session.ended` (the first one), or null while it goes on: an ended session refuses messages. */
  readonly ended_at_seq: number | null;
  readonly pending_actions: readonly PendingAction[];
  /** Every question an agent asked the person (`ask_person`), waiting or answered, in the order asked. */
  readonly questions: readonly PersonQuestion[];
  /** Every decision recorded (`record_decision`), in log order. */
  readonly decisions: readonly RecordedDecision[];
  readonly skipped: readonly SkippedEvent[];
};

/** The state of a session with no events. */
export function initialState(): ConversationState {
  return {
    session_id: null,
    last_seq: 0,
    active_agents: [],
    history: [],
    business_rules: [],
    superseded_rules: [],
    product_brief: null,
    product_briefs: [],
    artifacts: [],
    readiness: { confirmed: false },
    handoffs: [],
    turns_in_progress: [],
    lane_ends: [],
    last_addressed: null,
    ended_at_seq: null,
    pending_actions: [],
    questions: [],
    decisions: [],
    skipped: [],
  };
}
