import type { SessionView } from '../agents/index.ts';
import { LINE_EVENT_TYPES, LINE_EVENTS } from '../domain/line/index.ts';
import type { ConversationDependencies, LineWorkspace } from './conversation-dependencies.ts';
import { recordLineEvents, worktreeUpdateFields } from './record-line-events.ts';

const DEV_PREFIX = 'dev:';

/**
 * Whether `agent` is a dev about to take its first turn of the session: active by an accepted handoff, no turn of
 * its own running or ended (the fold's state, so a dev's later turns cost no scan), and no `module.caught_up` of
 * its module in the log yet. Pure.
 */
export function needsCatchUp(view: SessionView, agent: string): boolean {
  if (!agent.startsWith(DEV_PREFIX)) return false;
  const { state } = view;
  const active = state.active_agents.some(
    (entry) => entry.agent === agent && entry.handoff_id !== null,
  );
  if (!active) return false;
  const hadTurn =
    state.turns_in_progress.some((turn) => turn.agent === agent) ||
    state.lane_ends.some((end) => end.agent === agent);
  if (hadTurn) return false;
  const module = agent.slice(DEV_PREFIX.length);
  return !view.events.some(
    (event) =>
      event.type === LINE_EVENT_TYPES.caughtUp &&
      (event.payload as { module?: unknown } | null)?.module === module,
  );
}

/**
 * Before a dev's first turn of a session (ADR 0416): a module whose worktree an earlier session's line left
 * gets `dev` merged into its branch, once `dev` took `main` — so it works on what `main` has now, as a new
 * module's worktree does — and `module.caught_up` records the merge commit or why it could not be made (the
 * conflicting paths), which the dev's task state says. A module with no worktree (it will start from `dev`)
 * or already holding `dev` records nothing. The caller holds the dev's lane.
 */
export async function catchUpWorktree(
  dependencies: ConversationDependencies,
  line: LineWorkspace,
  where: { sessionId: string; projectId: string; agent: string },
): Promise<void> {
  const { sessionId, projectId, agent } = where;
  // The kept view, when there is one, settles the common case (not a first turn) with no read of the log.
  const kept = dependencies.views.peek(sessionId);
  if (kept !== undefined && !needsCatchUp(kept, agent)) return;
  if (!needsCatchUp(await dependencies.views.load(sessionId), agent)) return;
  const module = agent.slice(DEV_PREFIX.length);
  const update = await line.workspaces
    .updateModuleFromIntegration(
      projectId,
      module,
      `Merge dev into dev-${module}: a new session's work starts from main`,
      { takeMain: true },
    )
    .catch((error: unknown) => {
      // The dev works on its branch as it was; its merge into dev brings the code together.
      dependencies.logger.warn(
        { err: error, session_id: sessionId, module },
        "dev could not be merged into the module's earlier worktree",
      );
      return null;
    });
  if (update === null || (update.ok && !update.merged)) return;
  await recordLineEvents(dependencies, sessionId, [
    LINE_EVENTS.moduleCaughtUp.create('system', { v: 1, module, ...worktreeUpdateFields(update) }),
  ]);
}
