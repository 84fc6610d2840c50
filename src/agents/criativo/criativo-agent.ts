import {
  businessRuleDefinition,
  createArtifactRegistry,
  productBriefDefinition,
} from '../../domain/artifacts/index.ts';
import {
  buildSystemPrompt,
  businessRuleUnits,
  type PromptSources,
} from '../runtime/build-system-prompt.ts';
import { rejectedHandoffsNote } from '../runtime/rejected-handoffs-note.ts';
import type { LoopAgent } from '../runtime/tool-loop.ts';
import { CRIATIVO_KICKOFF } from './criativo-kickoff.ts';
import { emitArtifactTool } from './emit-artifact-tool.ts';
import { reviseRuleTool } from '../line/revise-rule-tool.ts';

/** Criativo ideates with the person; its turns are short: it records rules, and revises them when told. */
export const CRIATIVO_MAX_ITERATIONS = 6;
/** An answer to the person and the rules it records (`FORJA_MODEL_OUTPUT_TOKENS_CRIATIVO` sets another). */
export const CRIATIVO_MAX_OUTPUT_TOKENS = 2048;

/**
 * What Criativo's `emit_artifact` knows: business rules, and the brief only so that asking for it is refused
 * with the reason (it is system-only). Backlog and architecture artifacts belong to the PO and Arquiteto.
 */
const CRIATIVO_ARTIFACTS = createArtifactRegistry([businessRuleDefinition, productBriefDefinition]);

/**
 * What exists in the project, for a session that continues it (ADR 0416): read for `scope.sessionId`, so the
 * project's other sessions are the earlier ones; null when nothing does.
 */
export type ExistingWork = (scope: {
  projectId: string;
  sessionId: string;
}) => Promise<string | null>;

export function criativoAgent(
  sources: PromptSources,
  registry = CRIATIVO_ARTIFACTS,
  existingWork?: ExistingWork,
): LoopAgent {
  return {
    slug: 'criativo',
    maxIterations: CRIATIVO_MAX_ITERATIONS,
    maxOutputTokens: CRIATIVO_MAX_OUTPUT_TOKENS,
    tools: [emitArtifactTool(registry), reviseRuleTool()],
    buildSystemPrompt: async (view, scope) =>
      (
        await buildSystemPrompt(sources, 'criativo', scope.projectId, {
          ...(await existingWork?.(scope).then((text) =>
            text === null ? {} : { projectContext: text },
          )),
          businessRules: businessRuleUnits(view.state.business_rules),
          taskState: withNote(CRIATIVO_KICKOFF, rejectedHandoffsNote(view.events, 'criativo')),
        })
      ).prompt,
  };
}

/** The task state with a note after it, when there is one. */
function withNote(taskState: string, note: string | null): string {
  return note === null ? taskState : `${taskState}\n\n${note}`;
}
