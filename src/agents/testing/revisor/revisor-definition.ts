import { z } from 'zod';
import type { AgentDefinition } from '../../agent-definition.ts';
import { buildSystemPrompt } from '../../runtime/build-system-prompt.ts';

/**
 * A throwaway agent, declared as a new agent is: this folder plus one roster line (and its slug in the
 * handoff targets of the agent that hands it work). Used by `roster.int.test.ts` to see that is all it takes.
 */
export const REVISOR_KICKOFF = 'Revise o backlog recebido e registre uma nota com record_review.';

export const revisorDefinition: AgentDefinition = {
  slug: 'revisor',
  label: 'Revisor',
  identity: 'Você é o Revisor: lê o backlog e aponta o que falta, sempre citando a história.',
  kickoff: REVISOR_KICKOFF,
  tools: ['record_review'],
  handoffTargets: [],
  runs: {
    kind: 'turns',
    create: ({ prompts }) => ({
      slug: 'revisor',
      maxIterations: 3,
      maxOutputTokens: 512,
      tools: [
        {
          name: 'record_review',
          description: 'Registra uma nota de revisão',
          mode: 'direct',
          parameters: z.strictObject({ note: z.string().min(1) }),
          run: async () => ({ ok: true, result: 'nota registrada' }),
        },
      ],
      buildSystemPrompt: async (_view, scope) =>
        (
          await buildSystemPrompt(prompts, 'revisor', scope.projectId, {
            taskState: REVISOR_KICKOFF,
          })
        ).prompt,
    }),
  },
};
