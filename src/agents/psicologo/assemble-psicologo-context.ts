import { ragQueryForPsychologist, TEMPLATE_NAMES } from '../../domain/memory/index.ts';
import type { ResolvedTemplate, TriageWithRag } from '../../memory/index.ts';
import type { SessionEvent } from '../../store/index.ts';
import type { AssemblyReport } from '../../harness/index.ts';
import { buildSystemPrompt } from '../runtime/build-system-prompt.ts';
import type {
  CompanionDependencies,
  SessionEndTrigger,
} from '../companions/companion-dependencies.ts';
import { PSICOLOGO_KICKOFF, PSICOLOGO_TRIAGE_LIMITS } from './psicologo-kickoff.ts';

export interface PsicologoContext {
  readonly report: AssemblyReport;
  readonly triage: TriageWithRag;
  readonly kickoff: ResolvedTemplate;
}

/**
 * The Psicólogo's assembled context: the harness layers, with the triage window (recent events plus
 * `rag_search` fragments for the query of the classified reason — the trigger, never a hypothesis's text)
 * as project context, and the kickoff (graph template first, inline text as fallback) with the trigger as
 * the task.
 */
export async function assemblePsicologoContext(
  dependencies: CompanionDependencies,
  trigger: SessionEndTrigger,
  events: readonly SessionEvent[],
): Promise<PsicologoContext> {
  const triage = await dependencies.triage(trigger.projectId, {
    recentEvents: events,
    ...PSICOLOGO_TRIAGE_LIMITS,
    query: ragQueryForPsychologist(trigger.reason),
  });
  const kickoff = await dependencies.kickoff(TEMPLATE_NAMES.psicologoKickoff, PSICOLOGO_KICKOFF);
  const report = await buildSystemPrompt(dependencies.prompts, 'psicologo', trigger.projectId, {
    projectContext: triage.window.text,
    taskState: `${kickoff.text}\n\nGatilho: a sessão terminou; motivo classificado: ${trigger.reason}.`,
  });
  return { report, triage, kickoff };
}
