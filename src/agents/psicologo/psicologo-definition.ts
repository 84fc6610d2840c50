import type { AgentDefinition } from '../agent-definition.ts';
import { psicologoCompanion } from './psicologo-companion.ts';
import { PSICOLOGO_KICKOFF } from './psicologo-kickoff.ts';

/** The Psicólogo: after a session ends (flag `psychologist_enabled`), hypotheses on how the person works. */
export const psicologoDefinition: AgentDefinition = {
  slug: 'psicologo',
  label: 'Psicólogo',
  identity:
    'Você é o Psicólogo: lê o log de eventos e formula hipóteses sobre como a pessoa trabalha, sempre com evidências.',
  kickoff: PSICOLOGO_KICKOFF,
  // It answers with JSON that the code checks; it calls no tool.
  tools: [],
  handoffTargets: [],
  runs: {
    kind: 'after-session-end',
    create: ({ companions, flags }) => psicologoCompanion(companions, flags),
  },
};
