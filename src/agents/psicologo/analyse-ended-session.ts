import type { SessionEvent } from '../../store/index.ts';
import type {
  CompanionDependencies,
  SessionEndTrigger,
} from '../companions/companion-dependencies.ts';
import { readSessionEvents } from '../companions/read-session-events.ts';
import { assemblePsicologoContext } from './assemble-psicologo-context.ts';
import { parseHypotheses } from './parse-hypotheses.ts';
import { PSICOLOGO_MAX_OUTPUT_TOKENS } from './psicologo-kickoff.ts';
import { MEMORY_EVENTS } from '../../domain/memory/index.ts';
import { askCompanion } from '../companions/ask-companion.ts';

export type PsicologoOutcome =
  | { status: 'proposed'; events: SessionEvent[]; problems: string[] }
  | { status: 'failed'; reason: string };

/**
 * The Psicólogo's analysis of an ended session (record ADR 0101): one model turn through the gateway (metered),
 * whose hypotheses — each about how the person works and backed by events of the session — are appended as
 * `hypothesis.proposed` for the person to accept or dismiss; those the prohibition refuses as
 * `hypothesis.refused`, with categories and paths only. A model that fails or answers nothing usable changes nothing.
 */
export async function analyseEndedSession(
  dependencies: CompanionDependencies,
  trigger: SessionEndTrigger,
): Promise<PsicologoOutcome> {
  const events = await readSessionEvents(dependencies.eventLog, trigger.sessionId);
  const context = await assemblePsicologoContext(dependencies, trigger, events);
  const outcome = await askCompanion(dependencies.gateway, {
    projectId: trigger.projectId,
    sessionId: trigger.sessionId,
    agent: 'psicologo',
    system: context.report.prompt,
    instruction: 'Analise a sessão e responda apenas com o JSON pedido.',
    maxOutputTokens: PSICOLOGO_MAX_OUTPUT_TOKENS,
  });
  if (!outcome.ok) return { status: 'failed', reason: outcome.reason };

  const { hypotheses, refused, problems } = parseHypotheses(
    outcome.text,
    new Set(events.map((event) => event.seq)),
  );
  if (hypotheses.length === 0 && refused.length === 0)
    return { status: 'proposed', events: [], problems };
  const rag =
    context.triage.rag.degraded === false
      ? { degraded: false }
      : { degraded: true, reason: context.triage.rag.degraded.reason };
  const appended = await dependencies.eventLog.append(trigger.sessionId, [
    ...hypotheses.map((hypothesis) =>
      MEMORY_EVENTS.hypothesisProposed.create('psicologo', {
        v: 1,
        hypothesis_id: dependencies.newId(),
        aspect: hypothesis.aspect,
        statement: hypothesis.statement,
        evidence: [...hypothesis.evidence],
        trigger: { kind: 'session.ended', reason: trigger.reason },
        rag,
      }),
    ),
    ...refused.map((hypothesis) =>
      MEMORY_EVENTS.hypothesisRefused.create('system', {
        v: 1,
        categories: [...new Set(hypothesis.violations.map((violation) => violation.category))],
        paths: hypothesis.violations.map((violation) => violation.path),
      }),
    ),
  ]);
  if (!appended.success) return { status: 'failed', reason: appended.error.message };
  return { status: 'proposed', events: appended.events, problems };
}
