import { artifactEvent, ARTIFACT_PAYLOAD_VERSION } from '../../domain/artifacts/index.ts';
import { type AgentTool, checkedByTheTool, defineTool } from '../runtime/agent-tool.ts';
import type { LineDependencies } from '../line/line-dependencies.ts';
import {
  BacklogDeclarationSchema,
  validateBacklogDeclaration,
} from './validate-backlog-declaration.ts';
import { readDoneTaskIds, readProjectArchitecture, readProjectBacklog } from '../../store/index.ts';

/**
 * `declare_backlog` (direct): records epics, stories and tasks, each an `artifact.<type>` event. Checked
 * whole against the project's backlog and module map; a refusal returns every problem to the model and
 * records nothing. Declaring an existing id again replaces that item.
 */
export function declareBacklogTool(dependencies: Pick<LineDependencies, 'database'>): AgentTool {
  return defineTool({
    name: 'declare_backlog',
    description:
      'Record backlog items: epics (EP-001…), stories (HS-001…, each with epic_id) and tasks (AT-001…, each with story_id), ' +
      "with acceptance criteria. Ids are stable: declaring an id again replaces the item. Leave a task's module out until a module map exists.",
    // Any arguments reach run(): the backlog rules report every problem at once, shape and references together.
    parameters: checkedByTheTool(BacklogDeclarationSchema),
    mode: 'direct',
    run: async (args, context) => {
      const [backlog, architecture, done] = await Promise.all([
        readProjectBacklog(dependencies.database, context.projectId),
        readProjectArchitecture(dependencies.database, context.projectId),
        readDoneTaskIds(dependencies.database, context.projectId),
      ]);
      const businessRuleIds = context.state.business_rules.map((rule) => rule.event_id);
      const checked = validateBacklogDeclaration(args, {
        backlog,
        moduleMap: architecture.module_map?.data ?? null,
        businessRuleIds,
        done,
      });
      if (!checked.ok) return { ok: false, result: checked.reason };
      const { epics, stories, tasks } = checked.declaration;
      const items = [
        ...epics.map((data) => ({ type: 'epic', data })),
        ...stories.map((data) => ({ type: 'story', data })),
        ...tasks.map((data) => ({ type: 'task', data })),
      ];
      const replaced = items
        .filter((item) =>
          [...backlog.epics, ...backlog.stories, ...backlog.tasks].some(
            (existing) => existing.id === item.data.id,
          ),
        )
        .map((item) => item.data.id);
      const ids = items.map((item) => item.data.id).join(', ');
      return {
        ok: true,
        result: `Recorded ${epics.length} epic(s), ${stories.length} stor(ies), ${tasks.length} task(s): ${ids}.${replaced.length > 0 ? ` Replaced: ${replaced.join(', ')}.` : ''} When the backlog covers the brief, call hand_off_to_arquiteto.`,
        events: items.map((item) =>
          artifactEvent(item.type, context.agent, { v: ARTIFACT_PAYLOAD_VERSION, data: item.data }),
        ),
      };
    },
  });
}
