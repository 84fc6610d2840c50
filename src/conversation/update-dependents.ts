import { lineModules } from '../agents/index.ts';
import type { ModuleMap } from '../domain/architecture/index.ts';
import { LINE_EVENTS } from '../domain/line/index.ts';
import type { ConversationDependencies, LineWorkspace } from './conversation-dependencies.ts';
import type { LaneTurns } from './lane-turns.ts';
import { recordLineEvents, worktreeUpdateFields } from './record-line-events.ts';

/**
 * After a look of the merge loop (ADR 0343): each module of the map neither merged nor finished (waiting for
 * its merge) that depends on one merged now gets `dev` merged into its branch in its worktree (a module with
 * no worktree yet will start from `dev`), and `module.dependency_merged` is recorded (the merge commit, or why it could not be made). Then the devs
 * whose merge failed in the look get their turn, and those told of a dependency one while it is still owed
 * (decided in the lane, from the log) — after the records, so one turn carries both.
 */
export async function updateDependents(
  dependencies: ConversationDependencies,
  line: LineWorkspace,
  turns: LaneTurns,
  where: { sessionId: string; projectId: string },
  look: {
    map: ModuleMap;
    mergedNow: readonly string[];
    merged: ReadonlySet<string>;
    /** Modules whose merge failed in this look: their devs get a turn whatever else is owed. */
    reopened: readonly string[];
  },
): Promise<void> {
  const { sessionId, projectId } = where;
  const { map, mergedNow, merged } = look;
  const told: string[] = [];
  // A module whose work is finished waits for its own merge, which brings the code together: left alone.
  const { events } = await dependencies.views.load(sessionId);
  const finished = new Set(
    lineModules(
      events,
      map.modules.map((entry) => entry.name),
      () => 0,
    )
      .filter((entry) => entry.state === 'finished')
      .map((entry) => entry.module),
  );
  for (const entry of map.modules) {
    const used = entry.dependsOn.filter((dependency) => mergedNow.includes(dependency));
    if (merged.has(entry.name) || finished.has(entry.name) || used.length === 0) continue;
    const update = await line.workspaces
      .updateModuleFromIntegration(
        projectId,
        entry.name,
        `Merge dev into dev-${entry.name}: ${used.join(', ')} merged`,
      )
      .catch((error: unknown) => {
        // The line goes on without it (the dev's own merge into dev brings the code together).
        dependencies.logger.warn(
          { err: error, session_id: sessionId, module: entry.name },
          'dev could not be merged into the dependent module',
        );
        return null;
      });
    if (update === null || (update.ok && !update.merged)) continue;
    await recordLineEvents(dependencies, sessionId, [
      LINE_EVENTS.moduleDependencyMerged.create('system', {
        v: 1,
        module: entry.name,
        dependencies: used,
        ...worktreeUpdateFields(update),
      }),
    ]);
    told.push(entry.name);
  }
  for (const module of new Set([...look.reopened, ...told])) {
    const agent = `dev:${module}`;
    // Started only if the lane still owes it (a failed merge, a dependency merged: `owedTurns`, ADR 0345).
    void turns
      .inLane(dependencies, sessionId, agent, 'line', () =>
        turns.startAndContinue(dependencies, {
          sessionId,
          projectId,
          agent,
          kind: 'message',
          onlyIfOwed: true,
        }),
      )
      .catch((error: unknown) =>
        dependencies.logger.error(
          { err: error, session_id: sessionId, agent },
          'line turn crashed',
        ),
      );
  }
}
