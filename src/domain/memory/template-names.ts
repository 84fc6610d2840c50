/**
 * The first batch of graph templates (record ADR 0101): the Psicólogo's and the Anamnese's kickoff (flag
 * `graph_templates_enabled`) and the context manager's summary prompt. An agent's `<slug>-instructions`
 * template (flag `graph_instruction_templates_enabled`, read through InstructionFiles) is seeded with
 * `forja seed --template`; the ux-designer's left the batch with the agent (ADR 0196).
 */
export const TEMPLATE_NAMES = {
  psicologoKickoff: 'psicologo-kickoff',
  anamneseKickoff: 'anamnese-kickoff',
  contextManagerSummarize: 'context-manager-summarize',
} as const;

/** The instruction template InstructionFiles reads for an agent: `<slug>-instructions`. */
export function instructionTemplateName(agentSlug: string): string {
  return `${agentSlug.replaceAll(':', '-')}-instructions`;
}
