import { instructionTemplateName } from '../../domain/memory/template-names.ts';
import type { PromptTemplate } from './template-store.ts';

/**
 * The harness's graph source (InstructionFiles, priority db > graph > dir > root): an agent's instructions
 * are the current `<slug>-instructions` template. InstructionFiles asks only when
 * `graph_instruction_templates_enabled` is on, caches the answer with a short TTL and names a failure.
 * The shape is the harness's `GraphInstructionTemplateSource`; memory does not import the harness.
 */
export function createGraphInstructionTemplateSource(
  read: (name: string) => Promise<PromptTemplate | null>,
): { readInstructionTemplate(agentSlug: string): Promise<string | null> } {
  return {
    readInstructionTemplate: async (agentSlug) =>
      (await read(instructionTemplateName(agentSlug)))?.body ?? null,
  };
}
