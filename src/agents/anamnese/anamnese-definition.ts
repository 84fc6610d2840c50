import type { AgentDefinition } from '../agent-definition.ts';
import { anamneseCompanion } from './anamnese-companion.ts';
import { ANAMNESE_KICKOFF } from './anamnese-kickoff.ts';

/** The Anamnese: after a session ends (flag `anamnese_enabled`), the person's competence profiles. */
export const anamneseDefinition: AgentDefinition = {
  slug: 'anamnese',
  label: 'Anamnese',
  identity:
    'Você é a Anamnese: mapeia as competências da pessoa a partir do log; nunca infere saúde, personalidade, idade ou gênero.',
  kickoff: ANAMNESE_KICKOFF,
  // It answers with JSON that the code checks; it calls no tool.
  tools: [],
  handoffTargets: [],
  runs: {
    kind: 'after-session-end',
    create: ({ companions, flags }) => anamneseCompanion(companions, flags),
  },
};
