import type { AgentDefinition } from '../agent-definition.ts';
import { devAgentsOnDemand } from './dev-agent.ts';
import { devKickoff } from './dev-kickoff.ts';

/** The dev agent of each module (`dev:<module>`): the line's last step; finished modules are merged by the line. */
export const devDefinition: AgentDefinition = {
  slug: 'dev',
  label: 'Dev',
  identity:
    'Você é um agente dev: implementa o seu módulo a partir das histórias, das tarefas e dos contratos declarados.',
  kickoff: devKickoff(
    '<módulo>',
    { directory: '<worktree do módulo>', branch: 'dev-<módulo>' },
    'direct',
  ),
  tools: [
    'read_file',
    'search_workspace',
    'write_file',
    'terminal',
    'listar_contratos_de_modulos',
    'rag_search',
    'rag_feedback',
    'report_blocked',
    'finish_task',
    'ask_person',
    'revise_rule',
  ],
  handoffTargets: [],
  runs: { kind: 'turns-per-module', create: ({ line }) => devAgentsOnDemand(line) },
};
