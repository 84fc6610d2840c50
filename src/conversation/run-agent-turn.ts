import { DEV_EVENT_TYPES } from '../domain/line/index.ts';
import {
  isRuleRevision,
  viewAfterAppend,
  type SessionView,
  runToolLoop,
  type LoopResult,
} from '../agents/index.ts';
import {
  decide,
  stopRequestedBy,
  turnInProgress,
  type TurnKind,
} from '../domain/conversation/index.ts';
import { findSession, LaneHeldElsewhereError, type SessionEvent } from '../store/index.ts';
import type { ConversationDependencies } from './conversation-dependencies.ts';
import { catchUpWorktree } from './catch-up-worktree.ts';
import { onKeptViewFirst } from './expected-version.ts';
import { pendingLaneWork } from './lane-work.ts';
import { owedBy } from './owed-turns.ts';
import { mergeLine } from './merge-line.ts';
import { routeBlocks } from './route-blocks.ts';
import { routeRuleRevisions, routeViewChanges } from './route-view-changes.ts';

/**
 * Who a turn is for. A `person` turn answers the person's message and starts at once; a `line` turn
 * (kickoff, resumed or approved work) waits for one of the process's turn slots, so a line of many modules
 * cannot start more turns at once than `FORJA_MAX_PARALLEL_TURNS`, and the person is never queued behind it.
 */
export type TurnPriority = 'person' | 'line';

export interface TurnRequest {
  sessionId: string;
  projectId: string;
  agent: string;
  kind: TurnKind;
  priority: TurnPriority;
  /**
   * Start only when the log says the lane owes a turn (`owedTurns`, ADR 0345): what a message, a routed block or
   * a failed merge asks for, so a turn another look already started for it is not started twice.
   */
  onlyIfOwed?: boolean;
}

export type TurnResult = LoopResult | { status: 'not_started'; reason: string };

/**
 * Opens a turn in the agent's lane and runs its tool loop. A turn that cannot start (the agent is not
 * active, its lane's turn waits for an approval) is reported, not forced.
 */
export function runAgentTurn(
  dependencies: ConversationDependencies,
  request: TurnRequest,
): Promise<TurnResult> {
  return inLane(dependencies, request.sessionId, request.agent, request.priority, () =>
    startAndContinue(dependencies, request),
  ).catch(heldElsewhere);
}

/** A lane another process holds: that process takes the work when it releases the lane (ADR 0170). */
export function heldElsewhere(error: unknown): TurnResult {
  if (error instanceof LaneHeldElsewhereError)
    return { status: 'not_started', reason: error.message };
  throw error;
}

/**
 * Runs `work` in the agent's lane; a `line` turn holds a turn slot while it runs. With lane leases, the work
 * also holds the lane's lease (one process at a time on a shared server): a lane held by another process
 * rejects with `LaneHeldElsewhereError` after telling the holder, which looks at the lane again when it
 * releases it (`pickUpLane`).
 */
export function inLane<T>(
  dependencies: ConversationDependencies,
  sessionId: string,
  agent: string,
  priority: TurnPriority,
  work: () => Promise<T>,
  options: { whenHeld?: 'want' | 'refuse' } = {},
): Promise<T> {
  const leases = dependencies.leases;
  const held =
    leases === undefined
      ? work
      : async () => {
          for (;;) {
            try {
              return await leases.hold(sessionId, agent, work, {
                onWanted: () => void pickUpLane(dependencies, sessionId, agent),
              });
            } catch (error) {
              // Released since it refused us: take it again. Still held: its holder was told — unless the
              // caller only tries (`refuse`): it has nothing stored yet for the holder to find.
              if (!(error instanceof LaneHeldElsewhereError)) throw error;
              if (options.whenHeld === 'refuse') throw error;
              if ((await leases.want(sessionId, agent)) === 'held') throw error;
            }
          }
        };
  // The slot is asked for first, synchronously in queue order, so slots still go in the order lanes were queued.
  return dependencies.queue.enqueue(sessionId, agent, () =>
    priority === 'line' ? dependencies.slots.run(held) : held(),
  );
}

/**
 * Does what the agent's lane owes according to the log, holding the lane: goes on with a turn in progress
 * (a process that died, or a message another process stored while this one held the lane), answers an
 * unanswered message, runs a pending kickoff, gives the sender of a rejected handoff its turn, or nothing.
 * Decided in the lane, so running it twice is harmless; after doing something it looks again, until the lane owes
 * nothing (a lane taken over from a dead process may owe its turn and a message stored during it). A `line`
 * pick-up (start-up resume) waits for a turn slot.
 */
export async function pickUpLane(
  dependencies: ConversationDependencies,
  sessionId: string,
  agent: string,
  priority: TurnPriority = 'person',
): Promise<TurnResult> {
  const session = await findSession(dependencies.database, sessionId);
  if (session === null) return { status: 'not_started', reason: `no session ${sessionId}` };
  const hasRuntime = (slug: string) => dependencies.catalog.get(slug) !== null;
  // Whether the lane did what it owed: it may owe more (a message stored during the resumed turn), so look again.
  let again = false;
  const ran = (result: TurnResult) => {
    again = result.status !== 'idle' && result.status !== 'not_started';
    return result;
  };
  const picked = inLane(dependencies, sessionId, agent, priority, async (): Promise<TurnResult> => {
    const view = await dependencies.views.load(sessionId);
    const work = pendingLaneWork(view.state, view.events, agent, hasRuntime);
    if (work === null) return { status: 'not_started', reason: 'nothing pending in the lane' };
    // The lane is ours now: what its last owner reserved and never settled is settled, before we reserve anew.
    const settled = (await dependencies.reservations?.settleLane(sessionId, agent)) ?? 0;
    if (settled > 0)
      dependencies.logger.warn(
        { session_id: sessionId, agent, reservations: settled },
        "settled the lane's previous owner's open reservations as interrupted",
      );
    dependencies.logger.info(
      { session_id: sessionId, agent, work: work.kind },
      'picking up the work a lane owes',
    );
    if (work.kind === 'continue')
      return ran(await continueTurn(dependencies, sessionId, session.project_id, agent));
    if (work.kind === 'start')
      return ran(
        await startAndContinue(dependencies, {
          sessionId,
          projectId: session.project_id,
          agent,
          kind: 'message',
        }),
      );
    const failed = decide(
      { type: 'FailTurn', turn_id: work.turn_id, reason: 'interrupted' },
      view.state,
    );
    if (failed.ok) await dependencies.eventLog.append(sessionId, failed.events);
    again = failed.ok;
    return { status: 'not_started', reason: 'the interrupted consolidation was closed' };
  })
    .catch(heldElsewhere)
    .then(async (result) => {
      // Looked again only after a look that appended (a turn ran, a consolidation closed), so this ends.
      if (again) await pickUpLane(dependencies, sessionId, agent, priority).catch(() => undefined);
      return result;
    });
  picked.catch((error: unknown) =>
    dependencies.logger.error({ err: error, session_id: sessionId, agent }, 'lane pickup crashed'),
  );
  return picked;
}

/** Appends `turn.started` and runs the loop; the caller holds the agent's lane. */
export async function startAndContinue(
  dependencies: ConversationDependencies,
  request: Omit<TurnRequest, 'priority'>,
): Promise<TurnResult> {
  if (dependencies.catalog.get(request.agent) === null)
    return {
      status: 'not_started',
      reason: `no runtime for agent ${request.agent} in this process`,
    };
  // A dev's first turn of the session: a worktree an earlier session left first gets dev, which holds main.
  if (dependencies.line !== undefined && request.agent.startsWith('dev:'))
    await catchUpWorktree(dependencies, dependencies.line, request);
  // A refusal or conflict on the kept view is decided again on a read (ADR 0262).
  const started = await onKeptViewFirst(
    dependencies.views,
    request.sessionId,
    async (kept) => {
      const onKept = await appendTurnStarted(dependencies, request, kept, true);
      return onKept.ok ? onKept : undefined;
    },
    async () =>
      appendTurnStarted(
        dependencies,
        request,
        await dependencies.views.load(request.sessionId),
        false,
      ),
  );
  if (!started.ok) return { status: 'not_started', reason: started.reason };
  // The turn's one read of the log was the load above (or none): from here its view is carried forward by its appends.
  const current = await viewAfterAppend(
    dependencies.eventLog,
    request.sessionId,
    started.view,
    started.appended,
  );
  return continueTurn(dependencies, request.sessionId, request.projectId, request.agent, current);
}

/**
 * Decides `turn.started` on `view` and appends it. On a view just read, with no expected version: other lanes
 * append between our read and this write, and what StartTurn checked (the agent active, its own lane idle) only
 * this lane or nothing changes. On a peeked view the append expects its seq.
 */
async function appendTurnStarted(
  dependencies: ConversationDependencies,
  request: Omit<TurnRequest, 'priority'>,
  view: SessionView,
  peeked: boolean,
): Promise<
  { ok: true; view: SessionView; appended: SessionEvent[] } | { ok: false; reason: string }
> {
  const seen = view.state.last_seq;
  if (
    request.onlyIfOwed === true &&
    owedBy(
      view.state,
      view.events,
      request.agent,
      (slug) => dependencies.catalog.get(slug) !== null,
    ).length === 0
  )
    return { ok: false, reason: 'the lane owes no turn' };
  const decision = decide(
    { type: 'StartTurn', agent: request.agent, turn_id: dependencies.newId(), kind: request.kind },
    view.state,
  );
  if (!decision.ok) {
    if (!peeked)
      dependencies.logger.info(
        { session_id: request.sessionId, agent: request.agent, reason: decision.reason },
        'turn not started',
      );
    return { ok: false, reason: decision.reason };
  }
  const appended = await dependencies.eventLog.append(
    request.sessionId,
    decision.events,
    peeked ? { expectedSeq: seen } : undefined,
  );
  if (!appended.success) return { ok: false, reason: appended.error.message };
  return { ok: true, view, appended: appended.events };
}

/**
 * Runs (or resumes) the loop of the turn in progress in the agent's lane; the caller holds the lane. A caller
 * that has just brought the session's view up to date passes it (`current`); otherwise it is read from the log.
 */
export async function continueTurn(
  dependencies: ConversationDependencies,
  sessionId: string,
  projectId: string,
  agentSlug: string,
  current?: SessionView,
): Promise<TurnResult> {
  const agent = dependencies.catalog.get(agentSlug);
  if (agent === null)
    return { status: 'not_started', reason: `no runtime for agent ${agentSlug} in this process` };
  const view = current ?? (await dependencies.views.load(sessionId));
  const module = agentSlug.startsWith('dev:') ? agentSlug.slice('dev:'.length) : null;
  const turnId = turnInProgress(view.state, agentSlug)?.turn_id ?? '';
  // Stoppable by the person while it runs here (ADR 0220).
  const tracked = {
    sessionId,
    turnId,
    afterSeq: view.state.last_seq,
    requestedBy: stopRequestedBy(view.events, turnId),
  };
  const result = await dependencies.stops.track(tracked, (signal) =>
    runToolLoop(dependencies, agent, {
      projectId,
      sessionId,
      module,
      view,
      viewIsCurrent: current !== undefined,
      signal,
    }),
  );
  // The loop carried the view (the same object) forward with its own appends; other lanes see to theirs.
  // A dev's block goes to the Arquiteto, and its resolution back to the dev, each in its own lane.
  if (view.events.some((event) => event.type === DEV_EVENT_TYPES.blocked))
    routeBlocks(dependencies, sessionId, projectId, { inLane, startAndContinue });
  // A new contracts or map version reaches every dev lane whose view it changed (after the block routing);
  // looked at after a dev's turn too, for a lane that was waiting for the person when the version came.
  if (agentSlug === 'arquiteto' || module !== null)
    routeViewChanges(dependencies, sessionId, projectId, { inLane, startAndContinue });
  // A business rule the person changed reaches the PO and the Arquiteto (ADR 0421).
  if (view.events.some(isRuleRevision))
    routeRuleRevisions(dependencies, sessionId, projectId, { inLane, startAndContinue });
  // Finished modules merge into dev in dependency order; a conflict or failing check re-opens the dev's lane.
  if (
    dependencies.line !== undefined &&
    view.events.some((event) => event.type === DEV_EVENT_TYPES.taskFinished)
  )
    mergeLine(dependencies, dependencies.line, sessionId, projectId, { inLane, startAndContinue });
  return result;
}
