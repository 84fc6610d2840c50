import { MODULE_NAME_PATTERN } from '../../domain/architecture/index.ts';
import { buildSystemPrompt, businessRuleUnits } from '../runtime/build-system-prompt.ts';
import type { LoopAgent } from '../runtime/tool-loop.ts';
import type { DevDependencies } from './dev-dependencies.ts';
import { devBlocks, renderUnblocked } from './dev-blocks.ts';
import { devKickoff } from './dev-kickoff.ts';
import { renderReopened } from './line-events.ts';
import { fileTools } from './file-tools.ts';
import { finishTaskTool } from './finish-task-tool.ts';
import { listModuleContractsTool } from './list-module-contracts-tool.ts';
import { ragFeedbackTool, ragSearchTool } from './rag-tools.ts';
import { renderSandbox } from '../line/render-sandbox.ts';
import { renderModuleTasks } from './render-module-tasks.ts';
import { reportBlockedTool } from './report-blocked-tool.ts';
import { renderViewChanges } from './view-changes.ts';
import { renderDependencyUpdates } from './dependency-updates.ts';
import { renderCaughtUp } from './render-caught-up.ts';
import { terminalTool } from './terminal-tool.ts';
import { mcpTools } from './mcp-tools.ts';
import { askPersonTool } from '../line/ask-person-tool.ts';
import { reviseRuleTool } from '../line/revise-rule-tool.ts';
import { renderDecisions } from '../line/render-line-context.ts';
import { readProjectArchitecture, readProjectBacklog } from '../../store/index.ts';

export const DEV_MAX_ITERATIONS = 20;
/** A file written whole in one call (`FORJA_MODEL_OUTPUT_TOKENS_DEV` sets another). */
export const DEV_MAX_OUTPUT_TOKENS = 8192;
const DEV_SLUG_PREFIX = 'dev:';

/** The dev agent of one module (`dev:<module>`): implements its tasks in its own worktree. */
export function devAgent(dependencies: DevDependencies, module: string): LoopAgent {
  return {
    slug: `${DEV_SLUG_PREFIX}${module}`,
    maxIterations: DEV_MAX_ITERATIONS,
    maxOutputTokens: DEV_MAX_OUTPUT_TOKENS,
    tools: [
      ...fileTools(dependencies),
      terminalTool(dependencies),
      listModuleContractsTool(dependencies),
      ragSearchTool(dependencies.ragSearch),
      ragFeedbackTool(),
      reportBlockedTool(),
      finishTaskTool(dependencies),
      askPersonTool(),
      reviseRuleTool(),
    ],
    projectTools: (scope) => mcpTools(dependencies, scope),
    buildSystemPrompt: async (view, scope) => {
      const [backlog, architecture, worktree, tools] = await Promise.all([
        readProjectBacklog(dependencies.database, scope.projectId),
        readProjectArchitecture(dependencies.database, scope.projectId),
        dependencies.workspaces.ensureWorktree(scope.projectId, module),
        dependencies.terminal.tools(),
      ]);
      const projectContext = [
        renderSandbox(tools, dependencies.terminal.settings),
        renderModuleTasks(module, architecture.module_map?.data ?? null, backlog),
        renderDecisions(view.state),
      ].join('\n\n');
      const unblocked = renderUnblocked(devBlocks(view.events), `${DEV_SLUG_PREFIX}${module}`);
      const reopened = renderReopened(view.events, module);
      const changed = renderViewChanges(view.state, view.events, `${DEV_SLUG_PREFIX}${module}`);
      const updated = renderDependencyUpdates(
        view.state,
        view.events,
        `${DEV_SLUG_PREFIX}${module}`,
      );
      const caughtUp = renderCaughtUp(view.events, module);
      const taskState = [
        devKickoff(module, worktree, dependencies.terminal.settings.mode),
        ...[caughtUp, unblocked, changed, updated, reopened].flatMap((note) =>
          note === null ? [] : ['', note],
        ),
      ].join('\n');
      // The instruction files on the path to the module's directory (the map's `directory`; the root when it has none).
      const instructionScope =
        architecture.module_map?.data.modules.find((entry) => entry.name === module)?.directory ??
        '';
      return (
        await buildSystemPrompt(
          dependencies.prompts,
          `${DEV_SLUG_PREFIX}${module}`,
          scope.projectId,
          {
            projectContext,
            businessRules: businessRuleUnits(view.state.business_rules),
            taskState,
            instructionScope,
          },
        )
      ).prompt;
    },
  };
}

/**
 * The dev agents on demand: `dev:<module>` for any valid module name (one per module of the map is what
 * the Arquiteto hands off to; the activation rule decides which may run). Built once per module.
 */
export function devAgentsOnDemand(
  dependencies: DevDependencies,
): (slug: string) => LoopAgent | null {
  const agents = new Map<string, LoopAgent>();
  return (slug) => {
    if (!slug.startsWith(DEV_SLUG_PREFIX)) return null;
    const module = slug.slice(DEV_SLUG_PREFIX.length);
    if (!MODULE_NAME_PATTERN.test(module)) return null;
    if (!agents.has(slug)) agents.set(slug, devAgent(dependencies, module));
    return agents.get(slug)!;
  };
}
