/**
 * Retry and Regenerate as one rule for the server and the web (ADR 0220): what each reads of a lane's last
 * ended turn and its lane, and the rule that refuses it, or null. The server's 409s name the rule and say why;
 * the web shows the button exactly when the server would accept it. Pure, and a leaf: the web bundles it.
 */
export interface LaneEndFacts {
  /** The ended turn's kind: `consolidation` is run again by confirming readiness, not from its turn. */
  readonly kind: string;
  readonly outcome: string;
  /** Whether it ended with an answer (or a stopped partial one) to regenerate. */
  readonly hasAnswer: boolean;
  readonly usedTools: boolean;
  /** Another turn of the same lane is running. */
  readonly laneBusy: boolean;
  readonly agentActive: boolean;
  /** The person wrote to the agent after the turn ended. */
  readonly personWroteAfter: boolean;
}

export type LaneEndRule =
  | 'lane_busy'
  | 'agent_not_active'
  | 'consolidation_turn'
  | 'turn_not_failed'
  | 'no_answer'
  | 'answer_used_tools'
  | 'person_wrote_after';

/** What Retry and Regenerate share: no turn running in the lane, its agent active, not a consolidation. */
function laneRefusal(facts: LaneEndFacts): LaneEndRule | null {
  if (facts.laneBusy) return 'lane_busy';
  if (!facts.agentActive) return 'agent_not_active';
  if (facts.kind === 'consolidation') return 'consolidation_turn';
  return null;
}

/** Retry: the lane's last turn failed (a provider error, a refused budget, an interrupted process). */
export function retryRefusal(facts: LaneEndFacts): LaneEndRule | null {
  return laneRefusal(facts) ?? (facts.outcome === 'failed' ? null : 'turn_not_failed');
}

/**
 * Regenerate: the lane's last turn ended with an answer, called no tools (their effects stay), and the person
 * has not written to the agent since.
 */
export function regenerateRefusal(facts: LaneEndFacts): LaneEndRule | null {
  const lane = laneRefusal(facts);
  if (lane !== null) return lane;
  if (!facts.hasAnswer) return 'no_answer';
  if (facts.usedTools) return 'answer_used_tools';
  if (facts.personWroteAfter) return 'person_wrote_after';
  return null;
}
