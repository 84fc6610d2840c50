import { decide, rehydrate, type ConversationState } from '../../domain/conversation/index.ts';
import { offerHandoff, transitionHandoff, type Handoff } from '../../domain/handoffs/index.ts';
import {
  AppendConflictError,
  insertHandoff,
  isAppendConflict,
  lockHandoff,
  updateHandoffStatus,
  type NewSessionEvent,
} from '../../store/index.ts';
import type { LineDependencies } from './line-dependencies.ts';

/** An agent of the line finishing its part: its own handoff completed, the work offered onwards. */
export interface HandOffRequest {
  sessionId: string;
  state: ConversationState;
  from: string;
  to: readonly string[];
  /** The artifact handed over (an event of this session), or null. */
  artifactId: string | null;
}

export type HandOffOutcome =
  | { ok: true; completed: Handoff | null; offered: Handoff[]; alreadyOffered: string[] }
  | { ok: false; reason: string };

/**
 * Completes the accepted handoff addressed to `from` and offers one handoff to each agent of `to`: rows and
 * `handoff.completed` / `handoff.offered` events in one transaction (record ADR 0008). Safe to run again — a
 * process stopped after this commit and before the tool's own record re-runs the tool — because agents
 * already offered the work are skipped and a completed handoff is not completed twice.
 */
export async function handOffWork(
  dependencies: LineDependencies,
  request: HandOffRequest,
): Promise<HandOffOutcome> {
  // Other lanes append while this one decides: on a stale view, decide again on the log as it now is.
  let state = request.state;
  let last = '';
  for (let attempt = 0; attempt < HAND_OFF_ATTEMPTS; attempt += 1) {
    try {
      return await attemptHandOff(dependencies, request, state);
    } catch (error) {
      if (!(error instanceof AppendConflictError)) throw error;
      last = error.message;
      state = rehydrate(await dependencies.eventLog.read(request.sessionId, { limit: 1_000_000 }));
    }
  }
  return {
    ok: false,
    reason: `handing off from ${request.from} was decided ${HAND_OFF_ATTEMPTS} times while the session kept moving (${last}); call the tool again`,
  };
}

const HAND_OFF_ATTEMPTS = 25;

async function attemptHandOff(
  dependencies: LineDependencies,
  request: HandOffRequest,
  state: ConversationState,
): Promise<HandOffOutcome> {
  const { from, sessionId } = request;
  const own =
    state.handoffs.find((handoff) => handoff.to_agent === from && handoff.status === 'accepted') ??
    null;
  const done = state.handoffs.some(
    (handoff) => handoff.to_agent === from && handoff.status === 'completed',
  );
  if (own === null && !done)
    return {
      ok: false,
      reason: `${from} has no accepted handoff in this session to complete; only an agent the work was handed to hands it on`,
    };
  const offeredBefore = new Set(
    state.handoffs
      .filter((handoff) => handoff.from_agent === from && handoff.status !== 'rejected')
      .map((handoff) => handoff.to_agent),
  );
  const toOffer = request.to.filter((agent) => !offeredBefore.has(agent));
  const alreadyOffered = request.to.filter((agent) => offeredBefore.has(agent));

  const offers: Array<{ handoff: Handoff; event: NewSessionEvent }> = [];
  for (const to of toOffer) {
    const id = dependencies.newId();
    const allowed = decide(
      {
        type: 'OfferHandoff',
        handoff_id: id,
        from_agent: from,
        to_agent: to,
        artifact_id: request.artifactId,
        actor: from,
      },
      state,
    );
    if (!allowed.ok) return { ok: false, reason: allowed.reason };
    const offered = offerHandoff({
      id,
      session_id: sessionId,
      from_agent: from,
      to_agent: to,
      artifact_id: request.artifactId,
      actor: from,
    });
    if (!offered.ok) return { ok: false, reason: offered.reason };
    offers.push(offered);
  }
  if (own === null && offers.length === 0)
    return { ok: true, completed: null, offered: [], alreadyOffered };

  return dependencies.database.transaction(async (transaction) => {
    const events: NewSessionEvent[] = [];
    let completed: Handoff | null = null;
    if (own !== null) {
      const locked = await lockHandoff(transaction, own.id);
      const moved =
        locked === null ? null : transitionHandoff(locked, { type: 'complete', actor: from });
      if (moved === null || !moved.ok)
        return { ok: false as const, reason: moved?.reason ?? `handoff ${own.id} does not exist` };
      await updateHandoffStatus(transaction, moved.handoff);
      events.push(moved.event);
      completed = moved.handoff;
    }
    for (const offer of offers) await insertHandoff(transaction, offer.handoff);
    events.push(...offers.map((offer) => offer.event));
    const appended = await dependencies.eventLog.appendWithin(transaction, sessionId, events, {
      expectedSeq: state.last_seq,
    });
    // A concurrent append means our view is stale: roll back the rows with it (throwing is the rollback), decide again.
    if (isAppendConflict(appended)) throw new AppendConflictError(appended.error);
    if (!appended.success)
      throw new Error(`handing off from ${from} failed: ${appended.error.message}`);
    return {
      ok: true as const,
      completed,
      offered: offers.map((offer) => offer.handoff),
      alreadyOffered,
    };
  });
}
