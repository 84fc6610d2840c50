export type {
  BudgetFigures,
  GatewayPreflight,
  GatewayStatus,
  GatewayTurnOptions,
  GatewayTurnOutcome,
  GatewayTurnRequest,
  ModelGateway,
  TurnUsage,
} from './model-gateway.ts';
export { createModelGateway, type GatewayDependencies } from './create-model-gateway.ts';
export {
  createModelHealth,
  type AgentModelHealth,
  type AgentWindowReport,
  type ModelHealth,
  type ModelHealthReport,
  type WatchedModel,
} from './model-health.ts';
export {
  createEmbeddingGateway,
  createEmbeddingProviderFromConfig,
  type EmbeddingGateway,
  type EmbeddingOutcome,
  type EmbeddingProvider,
  type EmbeddingRequest,
} from './embeddings/index.ts';
export { expireStaleReservations } from './metering/settle-call.ts';
export {
  DEFAULT_STALE_AFTER_MS,
  interruptedCallError,
  startProcessIdentity,
  type ProcessIdentity,
} from './metering/process-identity.ts';
export { countEndedCalls, type EndedCalls } from './metering/count-ended-calls.ts';
export { summariseUsage, type UsageLine, type UsageSummary } from './metering/usage-summary.ts';
export { readCalls, type RecordedCall } from './metering/read-calls.ts';
export {
  readProjectBudget,
  readProjectBudgets,
  setProjectBudget,
  setProjectMoneyBudget,
  type ProjectBudget,
} from './metering/project-budget.ts';
export {
  BUILT_IN_PRICES,
  BUILT_IN_PRICES_AS_OF,
  callCostUsd,
  priceFor,
  type ModelPrice,
  type PriceTable,
} from './metering/prices/price-table.ts';
export { PRICES_VARIABLE, readPrices } from './metering/prices/read-prices-file.ts';
export type {
  AgentModelAssignment,
  FinishReason,
  ModelMessage,
  ToolCallPart,
  ToolDefinition,
} from './providers/index.ts';
