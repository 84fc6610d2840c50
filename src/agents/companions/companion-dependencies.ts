import type { SessionEndReason } from '../../domain/memory/index.ts';
import type { ModelGateway } from '../../gateway/index.ts';
import type { ResolvedTemplate, TriageWithRag } from '../../memory/index.ts';
import type { Database, EventLog, SessionEvent } from '../../store/index.ts';
import type { PromptSources } from '../runtime/build-system-prompt.ts';

/** What the companion agents (Psicólogo, Anamnese) are given. Flags are read on every run. */
export interface CompanionDependencies {
  database: Database;
  eventLog: EventLog;
  gateway: ModelGateway;
  prompts: PromptSources;
  /**
   * The triage window for a project (the memory's `composeTriageWithRag` over the project's `rag_search`;
   * without RAG, the recent events alone).
   */
  triage: (projectId: string, input: TriageRequest) => Promise<TriageWithRag>;
  /**
   * A kickoff's text (the memory's `resolveTemplate`): the graph template when `graph_templates_enabled` is on
   * (read on every run) and the template is seeded, else the inline text, with why.
   */
  kickoff: (name: string, inline: string) => Promise<ResolvedTemplate>;
  newId: () => string;
}

/** Why a companion ran: the session that ended, and the reason `classifySessionEnd` gave. */
export interface SessionEndTrigger {
  projectId: string;
  sessionId: string;
  reason: SessionEndReason;
}

/** What a companion asks the triage for: its recent events, its limits, and the RAG query (null: none). */
export interface TriageRequest {
  recentEvents: readonly SessionEvent[];
  maxPromptEvents: number;
  maxPayloadChars: number;
  query: string | null;
}
