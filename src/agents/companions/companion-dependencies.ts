import type { SessionEndReason } from '../../domain/memory/index.ts';
import type { ModelGateway } from '../../gateway/index.ts';
import type { ProjectRagSearch, PromptTemplate } from '../../memory/index.ts';
import type { Database, EventLog } from '../../store/index.ts';
import type { PromptSources } from '../runtime/build-system-prompt.ts';

/** What the companion agents (Psicólogo, Anamnese) are given. Flags are read on every run. */
export interface CompanionDependencies {
  database: Database;
  eventLog: EventLog;
  gateway: ModelGateway;
  prompts: PromptSources;
  /** `rag_search` of a project; null runs the companions without RAG. */
  ragSearchFor: (projectId: string) => ProjectRagSearch;
  readTemplate: (name: string) => Promise<PromptTemplate | null>;
  flags: { readonly graph_templates_enabled: boolean };
  newId: () => string;
}

/** Why a companion ran: the session that ended, and the reason `classifySessionEnd` gave. */
export interface SessionEndTrigger {
  projectId: string;
  sessionId: string;
  reason: SessionEndReason;
}
