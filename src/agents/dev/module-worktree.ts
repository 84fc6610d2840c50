import type { ModuleWorktree } from '../../workspace/index.ts';
import type { ToolContext, ToolOutcome } from '../runtime/agent-tool.ts';
import type { DevDependencies } from './dev-dependencies.ts';

/**
 * Runs a dev tool in the agent's own worktree (created on first use). The module comes from the loop
 * context, set from the agent's slug, never from the model's arguments.
 */
export async function inModuleWorktree(
  dependencies: Pick<DevDependencies, 'workspaces'>,
  context: ToolContext,
  work: (worktree: ModuleWorktree, module: string) => Promise<ToolOutcome>,
): Promise<ToolOutcome> {
  if (context.module === null)
    return {
      ok: false,
      result:
        'This tool works only for a dev agent of a module (dev:<module>); this agent has no module.',
    };
  return work(
    await dependencies.workspaces.ensureWorktree(context.projectId, context.module),
    context.module,
  );
}
