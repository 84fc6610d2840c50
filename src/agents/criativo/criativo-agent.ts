import type { ArtifactRegistry } from '../../domain/artifacts/index.ts';
import { buildSystemPrompt, businessRuleUnits, type PromptSources } from '../runtime/build-system-prompt.ts';
import type { LoopAgent } from '../runtime/tool-loop.ts';
import { CRIATIVO_KICKOFF } from './criativo-kickoff.ts';
import { emitArtifactTool } from './emit-artifact-tool.ts';

/** Criativo ideates with the person; its turns are short and it has one tool. */
export const CRIATIVO_MAX_ITERATIONS = 6;
export const CRIATIVO_MAX_OUTPUT_TOKENS = 1024;

export function criativoAgent(sources: PromptSources, registry: ArtifactRegistry): LoopAgent {
  return {
    slug: 'criativo',
    maxIterations: CRIATIVO_MAX_ITERATIONS,
    maxOutputTokens: CRIATIVO_MAX_OUTPUT_TOKENS,
    tools: [emitArtifactTool(registry)],
    buildSystemPrompt: async (view, scope) =>
      (await buildSystemPrompt(sources, 'criativo', scope.projectId, { businessRules: businessRuleUnits(view.state.business_rules), taskState: CRIATIVO_KICKOFF })).prompt,
  };
}
