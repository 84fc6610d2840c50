import { lineModules, type SessionView } from '../agents/index.ts';
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
    const ready = (module: string, mergedSoFar: ReadonlySet<string>) => {
      if (mergedSoFar.has(module) || states.get(module)!.state !== 'finished') return false;
      if (!tasksOf(module).every((task) => finished.has(task.id))) return false;
      const declared = map.modules.find((entry) => entry.name === module)!;
      return declared.dependsOn.every(
        (dependency) => mergedSoFar.has(dependency) || tasksOf(dependency).length === 0,
      );
    };
    // Several ready at once: merged together, the integration check run once on the last merge (ADR 0428).
    // Anything short of all merged and passing leaves dev as it was, and they are merged one by one below.
    const together = await mergeTogether(
      dependencies,
      line,
      { sessionId, projectId },
      {
        map,
        merged,
        candidates: required.filter((module) => !merged.has(module)),
        ready,
        view,
      },
    );
    mergedNow.push(...together);
    for (const module of required) {
      if (!ready(module, merged)) continue;
      const report: IntegrationReport = { checks: [], failure: null };
      // Under the project's git lock: the merge, the integration check in the scratch worktree and dev's move.
      const outcome = await line.workspaces.mergeModule(projectId, module, (scratch) =>
        runIntegrationChecks(line, scratch, {
          modules: map.modules.filter((entry) => merged.has(entry.name) || entry.name === module),
          report,
        }),
      );
      if (!outcome.docs.ok) docsConflict(dependencies, sessionId, outcome.docs.conflicts);
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
      await recordMerged(dependencies, sessionId, view, module, outcome.commit, report.checks);
      merged.add(module);
      mergedNow.push(module);
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

function docsConflict(
  dependencies: ConversationDependencies,
  sessionId: string,
  conflicts: readonly string[],
): void {
  dependencies.logger.warn(
    { session_id: sessionId, conflicts },
    "main's docs/ could not be merged into dev",
  );
}

/**
 * The modules ready to merge now, in order (a module whose dependencies are ready before it counts them
 * merged), merged together when there are two or more: `module.merged` for each, with its own merge commit and
 * the one integration check of them all, and its dev's handoff completed. Returns the modules merged (added to
 * `merged` too); none when fewer than two were ready or any merge or check failed — then `dev` did not move.
 */
async function mergeTogether(
  dependencies: ConversationDependencies,
  line: LineWorkspace,
  at: { sessionId: string; projectId: string },
  state: {
    map: { modules: readonly ModuleDeclaration[] };
    merged: Set<string>;
    candidates: readonly string[];
    ready: (module: string, mergedSoFar: ReadonlySet<string>) => boolean;
    view: SessionView;
  },
): Promise<string[]> {
  const batch: string[] = [];
  const assumed = new Set(state.merged);
  // Readiness with the batch so far counted as merged: a dependency earlier in the batch is merged first.
  for (const module of state.candidates)
    if (state.ready(module, assumed)) {
      batch.push(module);
      assumed.add(module);
    }
  if (batch.length < 2) return [];
  const report: IntegrationReport = { checks: [], failure: null };
  const outcome = await line.workspaces.mergeModules(at.projectId, batch, (scratch) =>
    runIntegrationChecks(line, scratch, {
      modules: state.map.modules.filter((entry) => assumed.has(entry.name)),
      report,
    }),
  );
  if (!outcome.docs.ok) docsConflict(dependencies, at.sessionId, outcome.docs.conflicts);
  if (outcome.outcome !== 'merged') return [];
  for (const [index, module] of batch.entries()) {
    await recordMerged(
      dependencies,
      at.sessionId,
      state.view,
      module,
      outcome.commits[index]!,
      report.checks,
    );
    state.merged.add(module);
  }
  return batch;
}

/** `module.merged` for a module merged into dev, and its dev's handoff completed (queued after this look). */
async function recordMerged(
  dependencies: ConversationDependencies,
  sessionId: string,
  view: SessionView,
  module: string,
  commit: string,
  checks: IntegrationCheck[],
): Promise<void> {
  await recordLineEvents(dependencies, sessionId, [
    LINE_EVENTS.moduleMerged.create('system', { v: 1, module, commit, checks }),
  ]);
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
