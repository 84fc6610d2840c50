import { buildSystemPrompt, businessRuleUnits } from '../runtime/build-system-prompt.ts';
import { rejectedHandoffsNote } from '../runtime/rejected-handoffs-note.ts';
import type { LoopAgent } from '../runtime/tool-loop.ts';
import {
  renderBacklog,
  renderBrief,
  renderDecisions,
  renderModuleMapSummary,
} from '../line/render-line-context.ts';
import { renderSandbox } from '../line/render-sandbox.ts';
import { askPersonTool } from '../line/ask-person-tool.ts';
import { renderRuleRevisions } from '../line/rule-revisions.ts';
import { reviseRuleTool } from '../line/revise-rule-tool.ts';
import { recordDecisionTool } from '../line/record-decision-tool.ts';
import type { ArquitetoDependencies } from './arquiteto-dependencies.ts';
import { ARQUITETO_MAX_ITERATIONS, arquitetoTaskState } from './arquiteto-kickoff.ts';
import { answerBlockTool } from './answer-block-tool.ts';
import { assignTasksTool } from './assign-tasks-tool.ts';
import { declareTools } from './declare-tools.ts';
import { handOffToDevsTool } from './hand-off-to-devs-tool.ts';
import { renderContractsSummary } from './render-contracts-summary.ts';
import { splitTaskTool } from './split-task-tool.ts';
import { devBlocks, renderOpenBlocks } from '../dev/dev-blocks.ts';
import {
  readDoneTaskIds,
  readEarlierSessions,
  readProjectArchitecture,
  readProjectBacklog,
} from '../../store/index.ts';
import { renderEarlierSessions } from '../line/render-earlier-sessions.ts';
import { existingCodeNote, renderRepositorySurvey } from '../line/render-repository-survey.ts';
import { mainReadTools } from './main-read-tools.ts';

/** Whole contracts of every module in one call. `FORJA_MODEL_OUTPUT_TOKENS_ARQUITETO` sets another. */
export const ARQUITETO_MAX_OUTPUT_TOKENS = 16_384;

/** The Arquiteto: declares the architecture and the module contracts, then hands one module to each dev. */
export function arquitetoAgent(dependencies: ArquitetoDependencies): LoopAgent {
  return {
    slug: 'arquiteto',
    maxIterations: ARQUITETO_MAX_ITERATIONS,
    maxOutputTokens: ARQUITETO_MAX_OUTPUT_TOKENS,
    tools: [
      ...declareTools(dependencies),
      assignTasksTool(dependencies),
      splitTaskTool(dependencies),
      handOffToDevsTool(dependencies),
      answerBlockTool(),
      ...mainReadTools(dependencies),
      askPersonTool(),
      recordDecisionTool(),
      reviseRuleTool(),
    ],
    buildSystemPrompt: async (view, scope) => {
      const [backlog, architecture, tools, done, earlier, survey] = await Promise.all([
        readProjectBacklog(dependencies.database, scope.projectId),
        readProjectArchitecture(dependencies.database, scope.projectId),
        dependencies.terminal.tools(),
        readDoneTaskIds(dependencies.database, scope.projectId),
        readEarlierSessions(dependencies.database, scope.projectId, scope.sessionId),
        dependencies.survey?.(scope.projectId) ?? null,
      ]);
      const earlierSessions = renderEarlierSessions(earlier);
      const repository = renderRepositorySurvey(survey);
      const handedOff = view.state.handoffs.some(
        (handoff) =>
          handoff.from_agent === 'arquiteto' &&
          handoff.to_agent.startsWith('dev:') &&
          handoff.status !== 'rejected',
      );
      // contexto_projeto keeps its head (truncate_tail): where checks run, the brief and the Arquiteto's own
      // declarations first, then the whole backlog with what the PO wrote in it, whose last items go first
      // when over budget.
      const projectContext = [
        renderSandbox(tools, dependencies.terminal.settings),
        renderBrief(view.state.product_brief),
        renderDecisions(view.state, { records: true }),
        renderModuleMapSummary(architecture.module_map?.data ?? null),
        renderContractsSummary(architecture.module_contracts?.data ?? null),
        renderBacklog(backlog, { criteria: true, descriptions: true, done }),
        // Last: over budget, the repository's survey is cut first, then what earlier sessions decided, before
        // the Arquiteto's own declarations.
        ...(earlierSessions === null ? [] : [earlierSessions]),
        ...(repository === null ? [] : [repository]),
      ].join('\n\n');
      const blocks = renderOpenBlocks(devBlocks(view.events));
      const rejected = rejectedHandoffsNote(view.events, 'arquiteto');
      const revised = renderRuleRevisions(view.state, view.events, 'arquiteto');
      const taskState = [
        arquitetoTaskState(architecture, backlog, handedOff, done),
        ...(repository === null ? [] : ['', existingCodeNote(architecture.module_map !== null)]),
        ...(blocks === null ? [] : ['', blocks]),
        ...(rejected === null ? [] : ['', rejected]),
        ...(revised === null ? [] : ['', revised]),
      ].join('\n');
      return (
        await buildSystemPrompt(dependencies.prompts, 'arquiteto', scope.projectId, {
          projectContext,
          businessRules: businessRuleUnits(view.state.business_rules),
          taskState,
        })
      ).prompt;
    },
  };
}
