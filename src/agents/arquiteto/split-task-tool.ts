import { topologicalOrder } from '../../domain/architecture/index.ts';
import { ARTIFACT_PAYLOAD_VERSION, artifactEvent } from '../../domain/artifacts/index.ts';
import { readProjectArchitecture, readProjectBacklog } from '../../store/index.ts';
import { standingFinishes } from '../dev/finished-tasks.ts';
import { lineModules } from '../dev/line-events.ts';
import { refusalText } from '../line/tool-refusal.ts';
import { type AgentTool, defineTool } from '../runtime/agent-tool.ts';
import type { ArquitetoDependencies } from './arquiteto-dependencies.ts';
import { planTaskSplit, SplitTaskSchema } from './split-task.ts';

/**
 * `split_task` (direct): replaces one backlog task by parts, each with its own title, description and
 * module (ADR 0383). Recorded like every task: an `artifact.task` of the task with `split_into` (nobody works
 * on it any more) and one of each part with a new id and `split_from`. Each dev's task list is the backlog's,
 * so the part reaches the dev of its module. Refused, with nothing recorded, for a task unknown, already split
 * or finished, and a part whose module is not in the map or already merged into dev.
 */
export function splitTaskTool(dependencies: ArquitetoDependencies): AgentTool {
  return defineTool({
    name: 'split_task',
    description:
      'Split a backlog task that straddles modules (or reword it, with one part) into parts, each for one module of the current map: ' +
      '{task_id: "AT-003", parts: [{module, title, description, acceptance_criteria?}]}. The parts get new task ids and replace the task; each dev sees only its part.',
    parameters: SplitTaskSchema,
    mode: 'direct',
    run: async (args, context) => {
      const [backlog, architecture] = await Promise.all([
        readProjectBacklog(dependencies.database, context.projectId),
        readProjectArchitecture(dependencies.database, context.projectId),
      ]);
      const map = architecture.module_map?.data ?? null;
      const order = map === null ? null : topologicalOrder(map);
      const modules =
        map === null ? [] : order?.ok ? order.order : map.modules.map((module) => module.name);
      const merged = new Set(
        lineModules(context.events, modules, () => 0)
          .filter((line) => line.state === 'merged')
          .map((line) => line.module),
      );
      const checked = planTaskSplit(args, {
        backlog,
        moduleMap: map,
        finished: standingFinishes(context.events),
        merged,
      });
      if (!checked.ok) return { ok: false, result: refusalText('split_task', checked.problems) };
      const { original, parts } = checked.plan;
      return {
        ok: true,
        result: `Split ${original.id} into ${parts.map((part) => `${part.id} → ${part.module}`).join(', ')}. ${original.id} is no longer worked on; each dev sees its part in its tasks.`,
        events: [original, ...parts].map((task) =>
          artifactEvent('task', context.agent, { v: ARTIFACT_PAYLOAD_VERSION, data: task }),
        ),
      };
    },
  });
}
