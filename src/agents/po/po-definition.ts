import type { AgentDefinition } from '../agent-definition.ts';
import { poAgent } from './po-agent.ts';
import { PO_KICKOFF } from './po-kickoff.ts';

/** The PO: the brief and rules become a backlog, handed to the Arquiteto (`hand_off_to_arquiteto`). */
export const poDefinition: AgentDefinition = {
  slug: 'po',
  label: 'PO',
  identity:
    'Você é o PO: transforma o product brief num backlog de histórias priorizadas com critérios de aceitação.',
  kickoff: PO_KICKOFF,
  tools: [
    'declare_backlog',
    'hand_off_to_arquiteto',
    'ask_person',
    'record_decision',
    'revise_rule',
  ],
  handoffTargets: ['arquiteto'],
  runs: { kind: 'turns', create: ({ line }) => poAgent(line) },
};
