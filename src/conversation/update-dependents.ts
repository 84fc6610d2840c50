import { dependencyTurnsOwed } from '../agents/index.ts';
import type { ModuleMap } from '../domain/architecture/index.ts';
import { LINE_EVENTS } from '../domain/line/index.ts';
import type { ConversationDependencies, LineWorkspace } from './conversation-dependencies.ts';
import type { LaneTurns } from './lane-turns.ts';

/**
 * After modules merged into `dev` (ADR 0343): each module of the map not merged yet that depends on one of
 * them gets `dev` merged into its branch in its worktree (a module with no worktree yet will start from
 * `dev`), `module.dependency_merged` is recorded (the merge commit, or why it could not be made), and its dev
 * gets a turn saying the dependency's code is in its worktree — decided again in the lane, from the log.
 */
export async function updateDependents(
  dependencies: ConversationDependencies,
  line: LineWorkspace,
  turns: LaneTurns,
  where: { sessionId: string; projectId: string },
  map: ModuleMap,
  mergedNow: readonly string[],
  merged: ReadonlySet<string>,
): Promise<void> {
  const { sessionId, projectId } = where;
  for (const entry of map.modules) {
    const used = entry.dependsOn.filter((dependency) => mergedNow.includes(dependency));
    if (merged.has(entry.name) || used.length === 0) continue;
    const update = await line.workspaces.updateModuleFromIntegration(
      projectId,
      entry.name,
      `Merge dev into dev-${entry.name}: ${used.join(', ')} merged`,
    );
    if (update === null || (update.ok && !update.merged)) continue;
    const appended = await dependencies.eventLog.append(sessionId, [
      LINE_EVENTS.moduleDependencyMerged.create('system', {
        v: 1,
        module: entry.name,
        dependencies: used,
        ...(update.ok
          ? { commit: update.commit }
          : { reason: update.reason.slice(0, 2000), conflicts: update.conflicts.slice(0, 200) }),
      }),
    ]);
    if (!appended.success)
      throw new Error(`could not record module.dependency_merged: ${appended.error.message}`);
    await dependencies.views.load(sessionId);
    const agent = `dev:${entry.name}`;
    void turns
      .inLane(dependencies, sessionId, agent, 'line', async () => {
        const { events } = await dependencies.views.load(sessionId);
        if (!dependencyTurnsOwed(events).includes(agent)) return;
        await turns.startAndContinue(dependencies, {
          sessionId,
          projectId,
          agent,
          kind: 'message',
        });
      })
      .catch((error: unknown) =>
        dependencies.logger.error(
          { err: error, session_id: sessionId, agent },
          'dependency turn crashed',
        ),
      );
  }
}
