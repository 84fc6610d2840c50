import type { SessionEvent } from '../conversation/index.ts';
import { currentVersion } from '../architecture/current-version.ts';
import { StoredArtifactPayloadSchema, artifactTypeOf } from './artifact-payload.ts';
import { DECISION_TYPE, DecisionSchema, type Decision } from './decision.ts';
import { PRODUCT_BRIEF_TYPE, ProductBriefSchema, type ProductBrief } from './product-brief.ts';

/** The artifact types an earlier session leaves for the next one to read (ADR 0416). */
export const EARLIER_SESSION_TYPES = [PRODUCT_BRIEF_TYPE, DECISION_TYPE] as const;

/** What one earlier session of a project decided: its current brief (if it got one) and its decisions. */
export interface EarlierSession {
  session_id: string;
  brief: ProductBrief | null;
  decisions: Decision[];
}

/**
 * The project's sessions other than `currentSessionId`, in the order their first brief or decision was
 * recorded, each with its current brief (the highest version, ties to the later event, as in the session's
 * own fold) and its decisions in order. An artifact that no longer parses is skipped. Pure.
 */
export function earlierSessions(
  events: readonly SessionEvent[],
  currentSessionId: string,
): EarlierSession[] {
  const sessions = new Map<
    string,
    { briefs: Array<{ seq: number; payload: ProductBrief }>; decisions: Decision[] }
  >();
  for (const event of events) {
    if (event.session_id === currentSessionId) continue;
    const type = artifactTypeOf(event.type);
    const envelope = StoredArtifactPayloadSchema.safeParse(event.payload);
    if (!envelope.success) continue;
    const session = sessions.get(event.session_id) ?? { briefs: [], decisions: [] };
    if (type === PRODUCT_BRIEF_TYPE) {
      const brief = ProductBriefSchema.safeParse(envelope.data.data);
      if (!brief.success) continue;
      session.briefs.push({ seq: event.seq, payload: brief.data });
    } else if (type === DECISION_TYPE) {
      const decision = DecisionSchema.safeParse(envelope.data.data);
      if (!decision.success) continue;
      session.decisions.push(decision.data);
    } else continue;
    sessions.set(event.session_id, session);
  }
  return [...sessions].map(([session_id, session]) => ({
    session_id,
    brief: currentVersion(session.briefs)?.payload ?? null,
    decisions: session.decisions,
  }));
}
