import { z } from 'zod';
import { TASK_ID_PATTERN } from '../../domain/artifacts/index.ts';
import { type AgentTool, defineTool } from '../runtime/agent-tool.ts';
import type { DevDependencies } from './dev-dependencies.ts';
import { runModuleCheck } from './run-module-check.ts';
import { inModuleWorktree } from './module-worktree.ts';
import { LINE_EVENTS } from '../../domain/line/index.ts';
import type { ToolContext, ToolOutcome } from '../runtime/agent-tool.ts';
import { devBlocks } from './dev-blocks.ts';
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
 * backlog or belongs to another module, and when there is nothing to commit.
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
        const task = (
          await readProjectBacklog(dependencies.database, context.projectId)
        ).tasks.find((candidate) => candidate.id === task_id);
        if (task === undefined)
          return {
            ok: false,
            result: `finish_task refused: ${task_id} is not a task of the backlog. Nothing was committed.`,
          };
        if (task.module !== undefined && task.module !== module)
          return {
            ok: false,
            result: `finish_task refused: ${task_id} belongs to module ${task.module}, not to ${module}. Nothing was committed.`,
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
        if (!committed.ok)
          return { ok: false, result: `finish_task refused: ${committed.reason}.` };
        return {
          ok: true,
          result: `${check === null ? `No check: module ${module} declares none and its stack has no default.` : check.report} Committed ${committed.commit.slice(0, 12)} on ${committed.branch}: ${committed.files.join(', ')}.`,
          events: [
            LINE_EVENTS.devTaskFinished.create(context.agent, {
              v: 1,
              agent: context.agent,
              module,
              task_id,
              summary: resumo,
              branch: committed.branch,
              commit: committed.commit,
              files: committed.files,
              check: check === null ? null : check.record,
            }),
          ],
        };
      }),
  });
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
