import { lineModules } from '../agents/index.ts';
import { DEV_EVENT_TYPES, LINE_EVENT_TYPES } from '../domain/line/index.ts';
import {
  checkOutputExcerpt,
  defaultCheckSkipped,
  moduleCheck,
  topologicalOrder,
  type ModuleDeclaration,
} from '../domain/architecture/index.ts';
import { readDoneTaskIds, readProjectArchitecture, readProjectBacklog } from '../store/index.ts';
import type { ConversationDependencies, LineWorkspace } from './conversation-dependencies.ts';
import { transitionHandoff } from './handoff-transition.ts';
import type { LaneTurns } from './lane-turns.ts';
import { SESSION_LANE } from './session-queue.ts';
import { recordLineEvents } from './record-line-events.ts';
import { updateDependents } from './update-dependents.ts';
import { LINE_EVENTS } from '../domain/line/index.ts';
import { limitNotes } from '../domain/terminal/index.ts';

/**
 * Merge in dependency order (ADR 0110), looked at after every turn of a session with finished tasks: each
 * module of the map whose tasks are all finished, whose dependencies are merged and whose last finish is newer
 * than its last failed merge, is merged into `dev` (a real merge commit in a scratch worktree) and the
 * integration check runs there (every merged module's check, this one's included, in the terminal's sandbox).
 * Pass: `dev` advances, `module.merged {module, commit, checks}` and the dev's handoff completes. Conflict or failing check: `dev` stays,
 * `module.merge_failed` and a turn in the dev's lane whose task state names the paths or the output. When every
 * module with tasks is merged: `line.completed {commit}`. In the session lane, decided from the log.
 */
export function mergeLine(
  dependencies: ConversationDependencies,
  line: LineWorkspace,
  sessionId: string,
  projectId: string,
  turns: LaneTurns,
): void {
  const merging = dependencies.queue.enqueue(sessionId, SESSION_LANE, async () => {
    const [architecture, backlog, view, done] = await Promise.all([
      readProjectArchitecture(dependencies.database, projectId),
      readProjectBacklog(dependencies.database, projectId),
      dependencies.views.load(sessionId),
      readDoneTaskIds(dependencies.database, projectId),
    ]);
    const map = architecture.module_map?.data;
    if (map === undefined || view.events.some((event) => event.type === LINE_EVENT_TYPES.completed))
      return;
    const order = topologicalOrder(map);
    const modules = order.ok ? order.order : map.modules.map((module) => module.name);
    const finished = new Set(
      view.events
        .filter((event) => event.type === DEV_EVENT_TYPES.taskFinished)
        .map((event) => (event.payload as { task_id: string }).task_id),
    );
    // This session's line: the tasks not done by an earlier line merged into main (ADR 0416).
    const tasksOf = (module: string) =>
      backlog.tasks.filter((task) => task.module === module && !done.has(task.id));
    const required = modules.filter((module) => tasksOf(module).length > 0);
    const states = new Map(
      lineModules(view.events, modules, () => 0).map((entry) => [entry.module, entry]),
    );
    const merged = new Set(required.filter((module) => states.get(module)!.state === 'merged'));
    const mergedNow: string[] = [];
    const reopened: string[] = [];
    for (const module of required) {
      const state = states.get(module)!;
      if (merged.has(module) || state.state !== 'finished') continue;
      if (!tasksOf(module).every((task) => finished.has(task.id))) continue;
      const declared = map.modules.find((entry) => entry.name === module)!;
      if (
        !declared.dependsOn.every(
          (dependency) => merged.has(dependency) || tasksOf(dependency).length === 0,
        )
      )
        continue;
      const report: IntegrationReport = { checks: [], failure: null };
      // Under the project's git lock: the merge, the integration check in the scratch worktree and dev's move.
      const outcome = await line.workspaces.mergeModule(projectId, module, (scratch) =>
        runIntegrationChecks(line, scratch, {
          modules: map.modules.filter((entry) => merged.has(entry.name) || entry.name === module),
          report,
        }),
      );
      if (!outcome.docs.ok)
        dependencies.logger.warn(
          { session_id: sessionId, conflicts: outcome.docs.conflicts },
          "main's docs/ could not be merged into dev",
        );
      if (outcome.outcome === 'conflict') {
        reopened.push(module);
        await reopen(dependencies, sessionId, module, {
          kind: 'conflict',
          paths: outcome.paths,
        });
        continue;
      }
      if (outcome.outcome === 'check_failed') {
        reopened.push(module);
        await reopen(dependencies, sessionId, module, {
          kind: 'check',
          output: report.failure ?? 'the integration check failed',
        });
        continue;
      }
      const checks = report.checks;
      await recordLineEvents(dependencies, sessionId, [
        LINE_EVENTS.moduleMerged.create('system', { v: 1, module, commit: outcome.commit, checks }),
      ]);
      merged.add(module);
      mergedNow.push(module);
      // The dev's handoff completes with its merge; queued after this look (the transition takes the session lane).
      const handoff = view.state.handoffs.find(
        (candidate) => candidate.to_agent === `dev:${module}` && candidate.status === 'accepted',
      );
      if (handoff !== undefined)
        void transitionHandoff(dependencies, handoff.id, {
          type: 'complete',
          actor: 'system',
        }).catch((error: unknown) =>
          dependencies.logger.error(
            { err: error, session_id: sessionId, module },
            'completing the dev handoff failed',
          ),
        );
    }
    // The modules that depend on what merged now get it in their worktrees (ADR 0343); then the re-opened devs
    // and those told of a dependency get their turn, one turn for both.
    await updateDependents(
      dependencies,
      line,
      turns,
      { sessionId, projectId },
      { map, mergedNow, merged, reopened },
    );
    if (required.length > 0 && required.every((module) => merged.has(module))) {
      const commit = await line.workspaces.integrationHead(projectId);
      await recordLineEvents(dependencies, sessionId, [
        LINE_EVENTS.lineCompleted.create('system', { v: 1, commit, modules: required }),
      ]);
    }
  });
  merging.catch((error: unknown) =>
    dependencies.logger.error({ err: error, session_id: sessionId }, 'merging the line crashed'),
  );
}

async function reopen(
  dependencies: ConversationDependencies,
  sessionId: string,
  module: string,
  failure: { kind: 'conflict'; paths: string[] } | { kind: 'check'; output: string },
): Promise<void> {
  await recordLineEvents(dependencies, sessionId, [
    LINE_EVENTS.moduleMergeFailed.create('system', { v: 1, module, ...failure }),
  ]);
}

type IntegrationCheck = {
  module: string;
  command: string;
  exit_code: number;
  duration_ms: number;
  skipped?: true;
};
type IntegrationReport = { checks: IntegrationCheck[]; failure: string | null };

/**
 * The integration check in the scratch worktree: every given module's check, in order, in the terminal's sandbox;
 * the first failure ends it with the failing tests, the tail and any limit reached (ADR 0322) in `report`.
 */
async function runIntegrationChecks(
  line: LineWorkspace,
  scratch: string,
  { modules, report }: { modules: readonly ModuleDeclaration[]; report: IntegrationReport },
): Promise<{ passed: boolean; report: IntegrationReport }> {
  for (const checked of modules) {
    const check = moduleCheck(checked);
    if (check === null) continue;
    const started = Date.now();
    const run = await line.terminal.run(scratch, check.command);
    const exit_code =
      run.ok && run.startError === null && run.exitCode !== null && !run.timedOut
        ? run.exitCode
        : -1;
    report.checks.push({
      module: checked.name,
      command: check.command,
      exit_code,
      duration_ms: Date.now() - started,
      // A default check whose stack's marker file is missing ran nothing: a skip, never shown as a pass.
      ...(exit_code === 0 && run.ok && check.source === 'default' && defaultCheckSkipped(run.output)
        ? { skipped: true as const }
        : {}),
    });
    if (exit_code !== 0) {
      // The failing tests first, then the tail (ADR 0322), then any limit the run reached.
      const output = run.ok
        ? [
            checkOutputExcerpt(run.output),
            ...limitNotes(run, line.terminal.settings.limits).map((note) => `[limit: ${note}]`),
          ].join('\n')
        : run.reason;
      report.failure = `$ ${check.command} (the check of ${checked.name})\n${output}\n[exit code ${exit_code}]`;
      return { passed: false, report };
    }
  }
  return { passed: true, report };
}
