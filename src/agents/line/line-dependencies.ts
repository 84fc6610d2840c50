import type { Database, EventLog } from '../../store/index.ts';
import type { RepositorySurvey } from '../../workspace/index.ts';
import type { PromptSources } from '../runtime/build-system-prompt.ts';

/**
 * What the agents of the production line (PO, Arquiteto, dev agents) are given: the harness's prompt
 * sources, the database they read the project's artifacts from and write handoffs to, and the event log.
 */
export interface LineDependencies {
  prompts: PromptSources;
  database: Database;
  eventLog: EventLog;
  newId: () => string;
  /** What the project's `main` holds (tree, READMEs, AGENTS.md, manifests), bounded; null without a main (ADR 0416). */
  survey?: (projectId: string) => Promise<RepositorySurvey | null>;
}
