// The harness's public surface: named exports only, so what other areas may use is visible in one place.
export { assemblePrompt, type AssemblyOptions, type PromptLayerInputs } from './assemble-prompt.ts';
export type { AssemblyReport, LayerReport, PromptUnit, UnitReport } from './assembly-report.ts';
export { createBpeTokenizer, type BpeEncodingName } from './bpe-tokenizer.ts';
export { conservativeTokenizer } from './conservative-tokenizer.ts';
export {
  CONTEXT_TOKENS_VARIABLE,
  DEFAULT_CONTEXT_TOKENS,
  NO_CONTEXT_WINDOW_SETTINGS,
  contextMarginTokens,
  contextWindowFor,
  historyBudget,
  modelFamilyWindow,
  readContextWindowSettings,
  type ContextWindow,
  type ContextWindowSettings,
  type ServerContext,
  type RequestFrame,
} from './context-window.ts';
export {
  DEFAULT_MAX_INSTRUCTION_FILE_BYTES,
  GLOBAL_INSTRUCTION_MARKER,
  discoverInstructionFiles,
  type DiscoveredInstructionFiles,
  type DiscoveryMethod,
  type DiscoveryOptions,
} from './discover-instruction-files.ts';
export {
  INSTRUCTION_BUDGET_CEILING,
  INSTRUCTION_BUDGET_FLOOR,
  INSTRUCTION_BUDGET_SHARE,
  instructionBudgetForWindow,
} from './instruction-budget.ts';
export { isStillFresh, type FreshnessBasis } from './instruction-freshness.ts';
export { instructionUnits } from './instruction-units.ts';
export { DuplicateHookHandlerError } from './duplicate-hook-handler-error.ts';
export { ESTIMATE_BYTES_PER_TOKEN, estimateTokenizer } from './estimate-tokenizer.ts';
export { formatAssemblyReport, type ReportFormatContext } from './format-assembly-report.ts';
export {
  HOOK_PHASES,
  createHooks,
  registerHook,
  runHooks,
  type HookHandler,
  type HookPayloads,
  type HookPhase,
  type HookRunResult,
  type HookVerdict,
  type Hooks,
  type PostToolUsePayload,
  type PreToolUsePayload,
  type SessionEndPayload,
  type SessionStartPayload,
  type ToolHookPhase,
} from './hooks.ts';
export {
  DEFAULT_GRAPH_TTL_MS,
  FAMILY_DB_INSTRUCTIONS_ID,
  agentFamily,
  createInstructionFiles,
  normalizeScope,
  selectForScope,
  type InstructionFiles,
  type InstructionFilesOptions,
  type InstructionFlags,
  type InstructionInvalidation,
  type InstructionLoadRequest,
  type LoadedInstructions,
} from './instruction-files.ts';
export {
  DB_INSTRUCTIONS_ID,
  GRAPH_INSTRUCTIONS_ID,
  type GraphInstructionTemplateSource,
  type InstructionPatchSource,
  type InstructionPriorityKind,
  type InstructionSkip,
  type InstructionSkipReason,
  type InstructionSource,
} from './instruction-sources.ts';
export { InvalidLayerBudgetError } from './invalid-layer-budget-error.ts';
export {
  DEFAULT_LAYER_BUDGETS,
  LAYER_NAMES,
  LAYER_STRATEGIES,
  isLayerName,
  type LayerName,
  type LayerStatus,
  type StrategyName,
} from './layers.ts';
export {
  PIN_MOVES_PAST,
  UPDATE_HEADER,
  pinSystemPrompt,
  systemPromptUpdate,
  type PinState,
  type PinStep,
} from './pinned-system-prompt.ts';
export { TRUNCATION_MARKER } from './prompt-layout.ts';
export { countJoined, type TokenCount, type Tokenizer } from './tokenizer.ts';
export {
  InvalidTokenizerSettingError,
  TOKENIZER_NAMES,
  defaultTokenizerNameForModel,
  isTokenizerName,
  tokenizerFromName,
  tokenizerNameFromEnvironment,
  type TokenizerName,
} from './tokenizer-from-name.ts';
export { UnknownHookPhaseError } from './unknown-hook-phase-error.ts';
export { UnknownTokenizerError } from './unknown-tokenizer-error.ts';
