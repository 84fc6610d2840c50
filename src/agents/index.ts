// The agents' public surface: what other folders may import (the rest is the agents' own; .dependency-cruiser.cjs).
export { createAgentCatalog, type AgentCatalog } from './agent-catalog.ts';
export {
  rosterProblems,
  type AgentDefinition,
  type RosterDependencies,
} from './agent-definition.ts';
export type { TriageRequest } from './companions/companion-dependencies.ts';
export type { SessionEndCompanion } from './companions/session-end-companion.ts';
export { consolidationTask } from './criativo/criativo-kickoff.ts';
export { devBlocks } from './dev/dev-blocks.ts';
export { standingFinishes } from './dev/finished-tasks.ts';
export { devProgress } from './dev/dev-progress.ts';
export { viewChangeTurnsOwed } from './dev/view-changes.ts';
export { isRuleRevision, ruleRevisionTurnsOwed } from './line/rule-revisions.ts';
export { dependencyTurnsOwed } from './dev/dependency-updates.ts';
export { lineModules, mergeIntoMainDecision } from './dev/line-events.ts';
export { instructionDigest } from './runtime/instruction-quarantine.ts';
export { sessionLine } from './dev/session-line.ts';
export { AGENT_ROSTER, AGENT_SLUGS, identityFrom, isAgentSlug } from './roster.ts';
export {
  buildSystemPrompt,
  lastAssemblyOf,
  type PromptSources,
} from './runtime/build-system-prompt.ts';
export {
  createContextManager,
  type ContextManager,
  type ContextReport,
} from './runtime/context-manager/create-context-manager.ts';
export { formatContextReport } from './runtime/context-manager/format-context-report.ts';
export { INLINE_SUMMARY_INSTRUCTION } from './runtime/context-manager/summarize-history.ts';
export { historyToMessages } from './runtime/history-to-messages.ts';
export { createLiveTurns, type LiveTurns } from './runtime/live-turns.ts';
export { createPromptPins, type PromptPins } from './runtime/prompt-pins.ts';
export {
  refreshSessionView,
  sessionProjectId,
  viewAfterAppend,
  type SessionView,
} from './runtime/session-view.ts';
export { foldVersion } from './runtime/fold-version.ts';
export { loadViewSnapshot, saveViewSnapshot } from './runtime/stored-view-snapshots.ts';
export { shareLiveTurns } from './runtime/shared-live-turns.ts';
export { toToolDefinitions } from './runtime/tool-definitions.ts';
export { runToolLoop, type LoopAgent, type LoopResult } from './runtime/tool-loop.ts';
export {
  DEFAULT_OUTPUT_LIMITS,
  readOutputLimits,
  type OutputLimits,
} from './runtime/output-limits.ts';
export {
  OUTPUT_TOKEN_KINDS,
  outputTokensVariable,
  readOutputTokenCaps,
  type OutputTokenCaps,
} from './runtime/output-tokens.ts';
export { endsWithoutModelCall } from './runtime/stop-rule.ts';
export { TurnStopRequest } from './runtime/turn-stop.ts';
