import type { AgentDefinition } from '../agent-definition.ts';
import { arquitetoAgent } from './arquiteto-agent.ts';
import { ARQUITETO_KICKOFF } from './arquiteto-kickoff.ts';

/** The Arquiteto: architecture and contracts, then one handoff per module to its dev (`hand_off_to_devs`). */
export const arquitetoDefinition: AgentDefinition = {
  slug: 'arquiteto',
  label: 'Arquiteto',
  identity:
    'Você é o Arquiteto: desenha o mapa de módulos, a responsabilidade de cada um e os contratos entre eles.',
  kickoff: ARQUITETO_KICKOFF,
  tools: [
    'declare_project_image',
    'declare_module_map',
    'route_modules_to_infra',
    'declare_c4_diagram',
    'declare_module_contracts',
    'assign_tasks_to_modules',
    'split_task',
    'hand_off_to_devs',
    'answer_block',
    'read_file',
    'search_workspace',
    'ask_person',
    'record_decision',
    'revise_rule',
  ],
  // `dev:<module>` for each module of the map.
  handoffTargets: ['dev'],
  runs: { kind: 'turns', create: ({ line }) => arquitetoAgent(line) },
};
