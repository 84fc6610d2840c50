import { ragQueryForAnamnese } from '../../domain/memory/index.ts';
import type { AssemblyReport } from '../../harness/index.ts';
import {
  composeTriageWithRag,
  resolveTemplate,
  TEMPLATE_NAMES,
  type ResolvedTemplate,
  type TriageWithRag,
} from '../../memory/index.ts';
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
  const triage = await composeTriageWithRag({
    recentEvents: events,
    ...ANAMNESE_TRIAGE_LIMITS,
    search: dependencies.ragSearchFor(trigger.projectId),
    query: missing,
  });
  const kickoff = await resolveTemplate({
    enabled: dependencies.flags.graph_templates_enabled,
    name: TEMPLATE_NAMES.anamneseKickoff,
    inline: ANAMNESE_KICKOFF,
    read: dependencies.readTemplate,
  });
  const report = await buildSystemPrompt(dependencies.prompts, 'anamnese', trigger.projectId, {
    projectContext: triage.window.text,
    taskState: `${kickoff.text}\n\nCompetências do projeto (use exatamente estes nomes): ${vocabulary.join(', ')}.\nCompetências ainda sem perfil: ${missing ?? '(nenhuma)'}.`,
  });
  return { report, triage, kickoff, missing };
}
