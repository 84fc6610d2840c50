import type { CompanionDependencies } from '../companions/companion-dependencies.ts';
import type { SessionEndCompanion } from '../companions/session-end-companion.ts';
import { analyseEndedSession } from './analyse-ended-session.ts';

/** The Psicólogo as a session-end companion, behind `psychologist_enabled` (default false). */
export function psicologoCompanion(
  dependencies: CompanionDependencies,
  flags: { readonly psychologist_enabled: boolean },
): SessionEndCompanion {
  return {
    name: 'psicologo',
    enabled: () => flags.psychologist_enabled,
    run: async (trigger) => analyseEndedSession(dependencies, trigger),
  };
}
