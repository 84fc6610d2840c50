import {
  buildSystemPrompt,
  businessRuleUnits,
  type PromptSources,
} from '../runtime/build-system-prompt.ts';
import type { LoopAgent } from '../runtime/tool-loop.ts';

export const UX_DESIGNER_MAX_ITERATIONS = 4;
export const UX_DESIGNER_MAX_OUTPUT_TOKENS = 2048;

/** The ux-designer's own task text; its instructions come from InstructionFiles (graph template included). */
export const UX_DESIGNER_KICKOFF = [
  'Você recebeu o trabalho por um handoff. A partir do product brief e das regras de negócio,',
  'proponha os fluxos e as telas principais, um de cada vez, e pergunte à pessoa o que ajustar.',
].join('\n');

/**
 * The ux-designer (ADR 0101): an agent of the roster that runs only when an accepted handoff addresses it,
 * like any other. Its instructions are the InstructionFiles sources — with `graph_instruction_templates_enabled`
 * the current `ux-designer-instructions` template joins them, below the database patch and above the files.
 */
export function uxDesignerAgent(sources: PromptSources): LoopAgent {
  return {
    slug: 'ux-designer',
    maxIterations: UX_DESIGNER_MAX_ITERATIONS,
    maxOutputTokens: UX_DESIGNER_MAX_OUTPUT_TOKENS,
    tools: [],
    buildSystemPrompt: async (view, scope) =>
      (
        await buildSystemPrompt(sources, 'ux-designer', scope.projectId, {
          businessRules: businessRuleUnits(view.state.business_rules),
          taskState: UX_DESIGNER_KICKOFF,
        })
      ).prompt,
  };
}
