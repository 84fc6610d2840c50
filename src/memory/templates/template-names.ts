/**
 * The first batch of graph templates (ADR 0101): the Psicólogo's and the Anamnese's kickoff (flag
 * `graph_templates_enabled`), the ux-designer's instructions (flag `graph_instruction_templates_enabled`,
 * read through InstructionFiles) and the context manager's summary prompt, seeded but not yet consumed.
 */
export const TEMPLATE_NAMES = {
  psicologoKickoff: 'psicologo-kickoff',
  anamneseKickoff: 'anamnese-kickoff',
  uxDesignerInstructions: 'ux-designer-instructions',
  contextManagerSummarize: 'context-manager-summarize',
} as const;

/** The instruction template InstructionFiles reads for an agent: `<slug>-instructions`. */
export function instructionTemplateName(agentSlug: string): string {
  return `${agentSlug.replaceAll(':', '-')}-instructions`;
}
