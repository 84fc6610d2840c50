import { ragQueryForAnamnese, TEMPLATE_NAMES } from '../../domain/memory/index.ts';
import type { AssemblyReport } from '../../harness/index.ts';
import type { ResolvedTemplate, TriageWithRag } from '../../memory/index.ts';
import type { SessionEvent } from '../../store/index.ts';
import type { CompanionDependencies } from '../companions/companion-dependencies.ts';
import { buildSystemPrompt } from '../runtime/build-system-prompt.ts';
import {
  ANAMNESE_COMPETENCIES,
  ANAMNESE_KICKOFF,
  ANAMNESE_TRIAGE_LIMITS,
} from './anamnese-kickoff.ts';

export interface AnamneseContext {
  readonly report: AssemblyReport;
  readonly triage: TriageWithRag;
  readonly kickoff: ResolvedTemplate;
  /** The trigger: competencies still without a profile (also the RAG query), null when none is missing. */
  readonly missing: string | null;
}

/**
 * The Anamnese's assembled context: recent events plus `rag_search` fragments for the competencies still
 * without a profile (only their names — never a profile's text), and the kickoff (graph template first).
 */
export async function assembleAnamneseContext(
  dependencies: CompanionDependencies,
  trigger: { projectId: string },
  events: readonly SessionEvent[],
  profiled: ReadonlyArray<{ competency: string }>,
  vocabulary: readonly string[] = ANAMNESE_COMPETENCIES,
): Promise<AnamneseContext> {
  const missing = ragQueryForAnamnese(vocabulary, profiled);
  const triage = await dependencies.triage(trigger.projectId, {
    recentEvents: events,
    ...ANAMNESE_TRIAGE_LIMITS,
    query: missing,
  });
  const kickoff = await dependencies.kickoff(TEMPLATE_NAMES.anamneseKickoff, ANAMNESE_KICKOFF);
  const report = await buildSystemPrompt(dependencies.prompts, 'anamnese', trigger.projectId, {
    projectContext: triage.window.text,
    taskState: `${kickoff.text}\n\nCompetências do projeto (use exatamente estes nomes): ${vocabulary.join(', ')}.\nCompetências ainda sem perfil: ${missing ?? '(nenhuma)'}.`,
  });
  return { report, triage, kickoff, missing };
}
