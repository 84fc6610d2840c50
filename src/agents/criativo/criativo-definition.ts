import type { AgentDefinition } from '../agent-definition.ts';
import { renderExistingWork } from '../line/render-existing-work.ts';
import { criativoAgent } from './criativo-agent.ts';
import { CRIATIVO_KICKOFF } from './criativo-kickoff.ts';

/** Criativo: the line's entry, started by the person; its brief goes to the PO when the person is ready. */
export const criativoDefinition: AgentDefinition = {
  slug: 'criativo',
  label: 'Criativo',
  identity:
    'Você é o Criativo: ideia o produto junto com a pessoa e registra as regras de negócio que ela confirma.',
  kickoff: CRIATIVO_KICKOFF,
  tools: ['emit_artifact', 'revise_rule'],
  // The handoff is offered when the person confirms readiness (conversation/confirm-readiness.ts).
  handoffTargets: ['po'],
  runs: {
    kind: 'turns',
    create: ({ prompts, line }) =>
      criativoAgent(prompts, undefined, (scope) => renderExistingWork(line, scope)),
  },
};
