import { z } from 'zod';
import { splitNote, TASK_ID_PATTERN } from '../../domain/artifacts/index.ts';
import { type AgentTool, defineTool } from '../runtime/agent-tool.ts';
import type { DevDependencies } from './dev-dependencies.ts';
import { runModuleCheck } from './run-module-check.ts';
import { inModuleWorktree } from './module-worktree.ts';
import { LINE_EVENTS } from '../../domain/line/index.ts';
import type { ToolContext, ToolOutcome } from '../runtime/agent-tool.ts';
import { devBlocks } from './dev-blocks.ts';
import { moduleFinishes } from './finished-tasks.ts';
import type { DevTaskFinishedPayload } from '../../domain/line/index.ts';

type FinishedCheck = NonNullable<DevTaskFinishedPayload['check']>;
import { readProjectArchitecture, readProjectBacklog } from '../../store/index.ts';

const FinishTaskSchema = z.strictObject({
  task_id: z.string().trim().regex(TASK_ID_PATTERN, 'must be a task id like AT-276'),
  resumo: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(500, 'must be at most 500 characters')
    .describe('One line: what was done.'),
});

/**
 * `finish_task` (direct): runs the module's check (the map's `check`, or the default for its stack) in the
 * same sandbox as `terminal`; a failing check refuses with the exit code, the failing tests and the output's
 * tail, and nothing is committed. Then commits every change of the worktree on the module's branch, with the task id in
 * the message, and records `dev.task_finished` with the commit. Refused for a task that is not in the
 * backlog or belongs to another module, and for a task already finished (unless a failed merge re-opened the
 * module since). With nothing new to commit after an earlier task of the module finished, the task is recorded
 * against the commit the branch is at, which holds its work (ADR 0341); with nothing committed at all, refused.
 */
export function finishTaskTool(
  dependencies: Pick<DevDependencies, 'database' | 'workspaces' | 'terminal'>,
): AgentTool {
  return defineTool({
    name: 'finish_task',
    description:
      'When a task is done: runs your module\'s check, then commits your worktree on your branch. {task_id: "AT-001", resumo: "what was done"}. A failing check refuses it with the failing tests: fix and call again (a check the module map broke is reported to the Arquiteto for you).',
    parameters: FinishTaskSchema,
    mode: 'direct',
    run: ({ task_id, resumo }, context) =>
      inModuleWorktree(dependencies, context, async (worktree, module) => {
        const backlog = await readProjectBacklog(dependencies.database, context.projectId);
        const task = backlog.tasks.find((candidate) => candidate.id === task_id);
        if (task === undefined)
          return {
            ok: false,
            result: `finish_task refused: ${splitNote(backlog, task_id)?.concat('; finish the part of your module instead') ?? `${task_id} is not a task of the backlog`}. Nothing was committed.`,
          };
        if (task.module !== undefined && task.module !== module)
          return {
            ok: false,
            result: `finish_task refused: ${task_id} belongs to module ${task.module}, not to ${module}. Nothing was committed.`,
          };
        const finishes = moduleFinishes(context.events, module, task_id);
        if (finishes.standing !== null)
          return {
            ok: false,
            result: `finish_task refused: ${task_id} is already finished — committed ${finishes.standing.commit.slice(0, 12)} on ${finishes.standing.branch} ("${finishes.standing.summary}"). A task is finished once; nothing was committed. Finish another of your tasks, or say in your answer what ${task_id} still needs.`,
          };
        const declared = (
          await readProjectArchitecture(dependencies.database, context.projectId)
        ).module_map?.data.modules.find((entry) => entry.name === module);
        const check =
          declared === undefined
            ? null
            : await runModuleCheck(
                dependencies.terminal,
                worktree.directory,
                declared,
                context.signal,
              );
        if (check !== null && !check.passed)
          return check.mapProblem === null
            ? {
                ok: false,
                result: `finish_task refused: ${check.report} Nothing was committed; fix it and call finish_task again.`,
              }
            : mapProblemRefusal(
                context,
                module,
                check.record.command,
                check.mapProblem,
                check.report,
              );
        const committed = await dependencies.workspaces.commitModule(
          context.projectId,
          module,
          `${task_id}: ${resumo}\n\nAgent: ${context.agent}`,
        );
        const checked =
          check === null
            ? `No check: module ${module} declares none and its stack has no default.`
            : check.report;
        const finished = (commit: string, branch: string, files: string[], result: string) =>
          finishedOutcome(
            context,
            { module, task_id, resumo, check: check?.record ?? null },
            {
              commit,
              branch,
              files,
              result,
            },
          );
        if (!committed.ok) {
          // Nothing new, but an earlier task's commit holds this one's work too: finished against it (ADR 0341).
          const earlier = finishes.last;
          if (committed.unchanged === undefined || earlier === null)
            return { ok: false, result: `finish_task refused: ${committed.reason}.` };
          const head = committed.unchanged.head;
          return finished(
            head,
            earlier.branch,
            [],
            `${checked} Nothing new to commit: the work of ${task_id} is already in ${head.slice(0, 12)} on ${earlier.branch} (committed when ${earlier.task_id} finished); ${task_id} is recorded as finished against that commit.`,
          );
        }
        return finished(
          committed.commit,
          committed.branch,
          committed.files,
          `${checked} Committed ${committed.commit.slice(0, 12)} on ${committed.branch}: ${committed.files.join(', ')}.`,
        );
      }),
  });
}

/** `dev.task_finished` for the task, recorded against `commit` (with no files: its work was already there). */
function finishedOutcome(
  context: ToolContext,
  task: { module: string; task_id: string; resumo: string; check: FinishedCheck | null },
  at: { commit: string; branch: string; files: string[]; result: string },
): ToolOutcome {
  return {
    ok: true,
    result: at.result,
    events: [
      LINE_EVENTS.devTaskFinished.create(context.agent, {
        v: 1,
        agent: context.agent,
        module: task.module,
        task_id: task.task_id,
        summary: task.resumo,
        branch: at.branch,
        commit: at.commit,
        files: at.files,
        ...(at.files.length === 0 ? { already_committed: true as const } : {}),
        check: task.check,
      }),
    ],
  };
}

/**
 * A check that fails for a reason of the module map (not found, cannot cd, git): the dev cannot fix it (the
 * check belongs to the map), so the refusal says so and records a block of kind `check` on its own module,
 * which gives the Arquiteto a turn naming the module and why (ADR 0321) — once while that block is open.
 */
function mapProblemRefusal(
  context: ToolContext,
  module: string,
  command: string,
  why: string,
  report: string,
): ToolOutcome {
  const already = devBlocks(context.events).some(
    (block) =>
      block.agent === context.agent && block.kind === 'check' && block.status !== 'unblocked',
  );
  return {
    ok: false,
    result: `finish_task refused: ${report} This is a problem of the module map's check, not of your code: ${why}. ${already ? 'It is already reported to the Arquiteto' : 'It was reported to the Arquiteto as a block of kind check'}; you get a turn when it declares a new module map. Nothing was committed; go on with what does not depend on the check.`,
    ...(already
      ? {}
      : {
          events: [
            LINE_EVENTS.devBlocked.create(context.agent, {
              v: 1,
              agent: context.agent,
              module,
              modulo: module,
              falta: `o check \`${command.slice(0, 300)}\` falhou: ${why}`,
              kind: 'check',
            }),
          ],
        }),
  };
}
