import { competencyVocabulary, MEMORY_EVENTS } from '../../domain/memory/index.ts';
import {
  type NewSessionEvent,
  readProjectArchitecture,
  type SessionEvent,
} from '../../store/index.ts';
import type { CompanionDependencies } from '../companions/companion-dependencies.ts';
import { readSessionEvents } from '../companions/read-session-events.ts';
import { ANAMNESE_COMPETENCIES, ANAMNESE_MAX_OUTPUT_TOKENS } from './anamnese-kickoff.ts';
import { assembleAnamneseContext } from './assemble-anamnese-context.ts';
import { parseProfiles } from './parse-profiles.ts';
import { readProfiledCompetencies } from './read-profiled-competencies.ts';
import { askCompanion } from '../companions/ask-companion.ts';

export type AnamneseOutcome =
  | { status: 'recorded'; events: SessionEvent[]; problems: string[] }
  | { status: 'failed'; reason: string };

/**
 * The Anamnese (record ADR 0101): one model turn through the gateway over the session's recent events (and RAG
 * fragments for competencies without a profile); each profile the prohibition accepts is appended as
 * `anamnese.profile_recorded` (closed: competency of the project's vocabulary, level, evidence); each the
 * prohibition refuses as `anamnese.profile_refused`, with categories and paths only.
 */
export async function buildCompetenceProfiles(
  dependencies: CompanionDependencies,
  trigger: { projectId: string; sessionId: string },
): Promise<AnamneseOutcome> {
  const events = await readSessionEvents(dependencies.eventLog, trigger.sessionId);
  const [profiled, architecture] = await Promise.all([
    readProfiledCompetencies(dependencies.database, trigger.projectId),
    readProjectArchitecture(dependencies.database, trigger.projectId),
  ]);
  const stacks = (architecture.module_map?.data.modules ?? []).map((module) => module.stack);
  const vocabulary = competencyVocabulary(ANAMNESE_COMPETENCIES, stacks);
  const context = await assembleAnamneseContext(
    dependencies,
    trigger,
    events,
    profiled,
    vocabulary,
  );
  const outcome = await askCompanion(dependencies.gateway, {
    projectId: trigger.projectId,
    sessionId: trigger.sessionId,
    agent: 'anamnese',
    system: context.report.prompt,
    instruction: 'Mapeie as competências e responda apenas com o JSON pedido.',
    maxOutputTokens: ANAMNESE_MAX_OUTPUT_TOKENS,
  });
  if (!outcome.ok) return { status: 'failed', reason: outcome.reason };

  const { profiles, refused, problems } = parseProfiles(
    outcome.text,
    new Set(events.map((event) => event.seq)),
    vocabulary,
  );
  const toAppend: NewSessionEvent[] = [
    ...profiles.map((profile) =>
      MEMORY_EVENTS.anamneseProfileRecorded.create('anamnese', {
        v: 2,
        profile_id: dependencies.newId(),
        competency: profile.competency,
        level: profile.level,
        evidence: [...profile.evidence],
      }),
    ),
    ...refused.map((profile) =>
      MEMORY_EVENTS.anamneseProfileRefused.create('system', {
        v: 1,
        competency: profile.competency,
        categories: [...new Set(profile.violations.map((violation) => violation.category))],
        paths: profile.violations.map((violation) => violation.path),
      }),
    ),
  ];
  if (toAppend.length === 0) return { status: 'recorded', events: [], problems };
  const appended = await dependencies.eventLog.append(trigger.sessionId, toAppend);
  if (!appended.success) return { status: 'failed', reason: appended.error.message };
  return { status: 'recorded', events: appended.events, problems };
}
