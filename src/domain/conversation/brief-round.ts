import type { Handoff } from '../handoffs/handoff.ts';
import type { ConversationState, RecordedProductBrief } from './conversation-state.ts';

/** Who hands the brief over, and to whom (record ADR 0008). */
export const BRIEF_SENDER = 'criativo';
export const BRIEF_RECEIVER = 'po';

/**
 * Where the session stands between Criativo and the PO (ADR 0160), from the fold alone:
 * - `ideation` — readiness was never confirmed: the person may confirm it.
 * - `consolidating` — readiness is confirmed and no brief was consolidated after it: the consolidation runs
 *   (or is retried); the next brief gets `next_version`.
 * - `handed_over` — the brief of the latest readiness exists and its handoff to the PO is not rejected
 *   (offered, accepted, completed — or not offered at all): nothing to confirm.
 * - `rejected` — every handoff of the current brief to the PO was rejected: the person may confirm readiness
 *   again, and the next consolidation is a new version.
 */
export type BriefRound =
  | { readonly stage: 'ideation' }
  | {
      readonly stage: 'consolidating';
      readonly readiness_seq: number;
      readonly next_version: number;
    }
  | {
      readonly stage: 'handed_over';
      readonly readiness_seq: number;
      readonly brief: RecordedProductBrief;
      readonly handoff: Handoff | null;
    }
  | {
      readonly stage: 'rejected';
      readonly readiness_seq: number;
      readonly brief: RecordedProductBrief;
      readonly handoff: Handoff;
    };

export function briefRound(state: ConversationState): BriefRound {
  const { readiness, product_brief: brief } = state;
  if (!readiness.confirmed) return { stage: 'ideation' };
  if (brief === null || brief.seq < readiness.seq) {
    const highest = Math.max(0, ...state.product_briefs.map((each) => each.data.version));
    return { stage: 'consolidating', readiness_seq: readiness.seq, next_version: highest + 1 };
  }
  const handoffs = state.handoffs.filter(
    (handoff) =>
      handoff.from_agent === BRIEF_SENDER &&
      handoff.to_agent === BRIEF_RECEIVER &&
      handoff.artifact_id === brief.event_id,
  );
  const standing = handoffs.filter((handoff) => handoff.status !== 'rejected');
  if (handoffs.length > 0 && standing.length === 0)
    return { stage: 'rejected', readiness_seq: readiness.seq, brief, handoff: handoffs.at(-1)! };
  return {
    stage: 'handed_over',
    readiness_seq: readiness.seq,
    brief,
    handoff: standing.at(-1) ?? null,
  };
}

/** Whether the person may press "Estou pronto para produzir" now (the rest of the rule is in `decide`). */
export function readinessOpen(round: BriefRound): boolean {
  return round.stage === 'ideation' || round.stage === 'rejected';
}
