import { buildSystemPrompt, businessRuleUnits } from '../runtime/build-system-prompt.ts';
import { rejectedHandoffsNote } from '../runtime/rejected-handoffs-note.ts';
import type { LoopAgent } from '../runtime/tool-loop.ts';
import { declareBacklogTool } from './declare-backlog-tool.ts';
import { handOffToArquitetoTool } from './hand-off-to-arquiteto-tool.ts';
import type { LineDependencies } from '../line/line-dependencies.ts';
import { askPersonTool } from '../line/ask-person-tool.ts';
import { renderRuleRevisions } from '../line/rule-revisions.ts';
import { reviseRuleTool } from '../line/revise-rule-tool.ts';
import { recordDecisionTool } from '../line/record-decision-tool.ts';
import { poTaskState } from './po-kickoff.ts';
import {
  renderBacklog,
  renderBrief,
  renderBusinessRuleIds,
  renderDecisions,
  renderModuleMapSummary,
} from '../line/render-line-context.ts';
import {
  readDoneTaskIds,
  readEarlierSessions,
  readProjectArchitecture,
  readProjectBacklog,
} from '../../store/index.ts';
import { renderEarlierSessions } from '../line/render-earlier-sessions.ts';
import { renderRepositorySurvey } from '../line/render-repository-survey.ts';
import { continuingBacklogNote } from './continuing-backlog.ts';

export const PO_MAX_ITERATIONS = 10;
/**
 * The PO declares the whole backlog in one call (stories with their criteria, as JSON): 4,096 cut a backlog of a
 * dozen stories. `FORJA_MODEL_OUTPUT_TOKENS_PO` sets another.
 */
export const PO_MAX_OUTPUT_TOKENS = 16_384;

/** The PO: turns the product brief and business rules into a backlog, then hands the work to the Arquiteto. */
export function poAgent(dependencies: LineDependencies): LoopAgent {
  return {
    slug: 'po',
    maxIterations: PO_MAX_ITERATIONS,
    maxOutputTokens: PO_MAX_OUTPUT_TOKENS,
    tools: [
      declareBacklogTool(dependencies),
      handOffToArquitetoTool(dependencies),
      askPersonTool(),
      recordDecisionTool(),
      reviseRuleTool(),
    ],
    buildSystemPrompt: async (view, scope) => {
      const [backlog, architecture, done, earlier, survey] = await Promise.all([
        readProjectBacklog(dependencies.database, scope.projectId),
        readProjectArchitecture(dependencies.database, scope.projectId),
        readDoneTaskIds(dependencies.database, scope.projectId),
        readEarlierSessions(dependencies.database, scope.projectId, scope.sessionId),
        dependencies.survey?.(scope.projectId) ?? null,
      ]);
      const earlierSessions = renderEarlierSessions(earlier);
      const repository = renderRepositorySurvey(survey);
      const handedOff = view.state.handoffs.some(
        (handoff) =>
          handoff.from_agent === 'po' &&
          handoff.to_agent === 'arquiteto' &&
          handoff.status !== 'rejected',
      );
      const projectContext = [
        renderBrief(view.state.product_brief),
        renderBusinessRuleIds(view.state.business_rules),
        renderDecisions(view.state, { records: true }),
        renderBacklog(backlog, { done }),
        renderModuleMapSummary(architecture.module_map?.data ?? null),
        // Over budget the tail goes first: the survey of main, then what earlier sessions decided.
        ...(earlierSessions === null ? [] : [earlierSessions]),
        ...(repository === null ? [] : [repository]),
      ].join('\n\n');
      const report = await buildSystemPrompt(dependencies.prompts, 'po', scope.projectId, {
        projectContext,
        businessRules: businessRuleUnits(view.state.business_rules),
        taskState: [
          poTaskState(backlog, handedOff),
          done.size === 0 ? null : continuingBacklogNote(backlog, done),
          rejectedHandoffsNote(view.events, 'po'),
          renderRuleRevisions(view.state, view.events, 'po'),
        ]
          .filter((part) => part !== null)
          .join('\n\n'),
      });
      return report.prompt;
    },
  };
}
