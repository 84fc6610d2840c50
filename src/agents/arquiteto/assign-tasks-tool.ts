import { z } from 'zod';
import {
  ARTIFACT_PAYLOAD_VERSION,
  TASK_ID_PATTERN,
  artifactEvent,
  splitNote,
} from '../../domain/artifacts/index.ts';
import { type AgentTool, checkedByTheTool, defineTool } from '../runtime/agent-tool.ts';
import { pathText, refusalText, type ArgumentProblem } from '../line/tool-refusal.ts';
import type { ArquitetoDependencies } from './arquiteto-dependencies.ts';
import { readProjectArchitecture, readProjectBacklog } from '../../store/index.ts';

const AssignmentsSchema = z.strictObject({
  assignments: z
    .array(
      z.strictObject({
        task_id: z.string().regex(TASK_ID_PATTERN, 'must be a task id like AT-276'),
        module: z.string().min(1, 'must not be empty'),
      }),
    )
    .min(1, 'assign at least one task'),
});

/**
 * `assign_tasks_to_modules` (direct): gives backlog tasks their module of the current map, so each dev
 * agent knows its tasks. The task keeps its id and content; it is declared again with `module` set (ids
 * are stable, the latest declaration is the task). Every problem is reported in one refusal.
 */
export function assignTasksTool(dependencies: ArquitetoDependencies): AgentTool {
  return defineTool({
    name: 'assign_tasks_to_modules',
    description:
      'Assign backlog tasks to modules of the current map: {assignments: [{task_id: "AT-001", module: "<module>"}]}.',
    parameters: checkedByTheTool(AssignmentsSchema),
    mode: 'direct',
    run: async (args, context) => {
      const [backlog, architecture] = await Promise.all([
        readProjectBacklog(dependencies.database, context.projectId),
        readProjectArchitecture(dependencies.database, context.projectId),
      ]);
      const parsed = AssignmentsSchema.safeParse(args);
      const map = architecture.module_map?.data ?? null;
      const problems: ArgumentProblem[] = parsed.success
        ? []
        : parsed.error.issues.map((issue) => ({
            path: pathText(issue.path),
            message: issue.message,
          }));
      if (map === null)
        problems.unshift({
          path: '(arguments)',
          message: 'this project has no module map yet; declare it with declare_module_map first',
        });
      if (!parsed.success || map === null)
        return { ok: false, result: refusalText('assign_tasks_to_modules', problems) };
      const modules = map.modules.map((module) => module.name);
      const seen = new Set<string>();
      parsed.data.assignments.forEach(({ task_id, module }, index) => {
        if (!backlog.tasks.some((task) => task.id === task_id))
          problems.push({
            path: `assignments[${index}].task_id`,
            message:
              splitNote(backlog, task_id)?.concat('; assign its parts') ??
              `${task_id} is not a task of the backlog; tasks: ${backlog.tasks.map((task) => task.id).join(', ') || '(none)'}`,
          });
        if (seen.has(task_id))
          problems.push({
            path: `assignments[${index}].task_id`,
            message: `${task_id} is assigned twice in this call`,
          });
        seen.add(task_id);
        if (!modules.includes(module))
          problems.push({
            path: `assignments[${index}].module`,
            message: `"${module}" is not in the current module map (version ${map.version}); valid modules: ${modules.join(', ')}`,
          });
      });
      if (problems.length > 0)
        return { ok: false, result: refusalText('assign_tasks_to_modules', problems) };
      const assigned = new Map(
        parsed.data.assignments.map((assignment) => [assignment.task_id, assignment.module]),
      );
      const tasks = backlog.tasks
        .filter((task) => assigned.has(task.id))
        .map((task) => ({ ...task, module: assigned.get(task.id)! }));
      const unassigned = backlog.tasks
        .filter((task) => !assigned.has(task.id) && task.module === undefined)
        .map((task) => task.id);
      return {
        ok: true,
        result: `Assigned: ${tasks.map((task) => `${task.id} → ${task.module}`).join(', ')}.${unassigned.length > 0 ? ` Still without a module: ${unassigned.join(', ')}.` : ' Every task has a module.'}`,
        events: tasks.map((task) =>
          artifactEvent('task', context.agent, { v: ARTIFACT_PAYLOAD_VERSION, data: task }),
        ),
      };
    },
  });
}
