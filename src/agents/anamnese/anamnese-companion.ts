import type { CompanionDependencies } from '../companions/companion-dependencies.ts';
import type { SessionEndCompanion } from '../companions/session-end-companion.ts';
import { buildCompetenceProfiles } from './build-competence-profiles.ts';

/** The Anamnese as a session-end companion, behind `anamnese_enabled` (default false). */
export function anamneseCompanion(
  dependencies: CompanionDependencies,
  flags: { readonly anamnese_enabled: boolean },
): SessionEndCompanion {
  return {
    name: 'anamnese',
    enabled: () => flags.anamnese_enabled,
    run: async (trigger) => buildCompetenceProfiles(dependencies, trigger),
  };
}
