import type {
  AgentModelAssignment,
  ModelMessage,
  ToolCallPart,
  ToolDefinition,
  FinishReason,
} from './providers/index.ts';

/**
 * The one way agent code reaches a model. Agents receive this interface, never a provider: every turn passes
 * through metering and the project's budget (record ADR 0008: "the engine never talks to the provider directly").
 */
export interface ModelGateway {
  /**
   * The provider and model `agent`'s calls go to (`FORJA_MODEL_<KIND>`, else `FORJA_MODEL`), or why there is
   * none (named environment variables to set). Without an agent: the default model.
   */
  status(agent?: string): GatewayStatus;
  /** Each agent kind's model and the variable that chose it (health, the session page, `forja status`). */
  models(): readonly AgentModelAssignment[];
  runTurn(request: GatewayTurnRequest, options?: GatewayTurnOptions): Promise<GatewayTurnOutcome>;
  /**
   * Whether `runTurn(request)` would be refused now (no provider, or the budget does not cover it), recording
   * nothing: for a use case that must refuse before it stores anything. `runTurn` still decides for good.
   */
  preflight(request: GatewayTurnRequest): Promise<GatewayPreflight>;
}

export type GatewayPreflight =
  | { ok: true }
  | { ok: false; status: 'not_configured'; message: string }
  | { ok: false; status: 'budget_exceeded'; message: string; figures: BudgetFigures };

export type GatewayStatus =
  | { configured: true; provider: string; model: string }
  | { configured: false; message: string };

export interface GatewayTurnRequest {
  projectId: string;
  sessionId: string | null;
  agent: string;
  system: string;
  messages: ModelMessage[];
  tools: ToolDefinition[];
  maxOutputTokens: number;
  temperature?: number;
  /** The agent this call is made for, when `agent` works for another (recorded in `token_usage.on_behalf_of`). */
  onBehalfOf?: string;
  /** The input's token count when the caller already measured it (the ContextManager does), so it is not measured twice. */
  inputTokens?: number;
}

export interface GatewayTurnOptions {
  signal?: AbortSignal;
  /** Called with each piece of text as the provider streams it. */
  onTextDelta?: (text: string) => void;
}

export interface TurnUsage {
  inputTokens: number;
  outputTokens: number;
  estimated: boolean;
  /** Of the input, tokens read from the provider's prompt cache (when it said so). */
  cachedInputTokens?: number;
  /** Of the input, tokens written to the provider's prompt cache (when it said so). */
  cacheWriteInputTokens?: number;
}

export interface BudgetFigures {
  max_tokens: number;
  spent_tokens: number;
  reserved_tokens: number;
  requested_tokens: number;
  /** With a budget in money (US dollars): the budget, what calls cost, what open reservations hold. */
  max_usd?: number;
  spent_usd?: number;
  reserved_usd?: number;
  /** What this call reserves at full price; null when no price is known for its model. */
  requested_usd?: number | null;
  /** Which budget refused: the one in tokens, the one in money, or the one in money for want of a price. */
  limit?: 'tokens' | 'usd' | 'price_unknown';
}

/** Expected outcomes are values: a refused budget or a failed provider is not an exception for the caller. */
export type GatewayTurnOutcome =
  | {
      status: 'completed';
      usageId: string;
      text: string;
      toolCalls: ToolCallPart[];
      usage: TurnUsage;
      finishReason: FinishReason;
    }
  | { status: 'not_configured'; message: string }
  | { status: 'budget_exceeded'; usageId: string; message: string; figures: BudgetFigures }
  | { status: 'failed'; usageId: string; message: string; errorName: string; partialText: string }
  | { status: 'cancelled'; usageId: string; partialText: string };
