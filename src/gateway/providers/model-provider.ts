/**
 * The port every model provider implements. The gateway is its only caller; agent code never sees it.
 *
 * Kept deliberately small (one streaming method) so that the scripted provider and the protocol
 * adapters are interchangeable and one contract test suite can hold them all to the same behaviour.
 */

/** A JSON Schema object describing a tool's parameters, passed to the model verbatim. */
export type JsonSchema = Record<string, unknown>;

/** A tool the model may call during this turn. */
export type ToolDefinition = {
  name: string;
  description: string;
  parameters: JsonSchema;
};

/** A tool call as it is replayed in the conversation history (a `tool-call` part fits this shape). */
export type ModelToolCall = {
  id: string;
  name: string;
  /** The arguments exactly as the model wrote them, even when they were not valid JSON. */
  rawArguments: string;
};

export type UserMessage = {
  role: 'user';
  content: string;
  /**
   * What changed in the lane's pinned system prompt (ADR 0430), sent after the history and kept there for later
   * calls. Anthropic's cache breakpoints stand on the block before an update: where the next call's history goes on.
   */
  contextUpdate?: true;
};

export type AssistantMessage = {
  role: 'assistant';
  content: string;
  toolCalls?: ModelToolCall[];
};

export type ToolResultMessage = {
  role: 'tool';
  toolCallId: string;
  content: string;
  /** Marks a refused or failed tool run; Anthropic forwards it, OpenAI has no such field. */
  isError?: boolean;
};

export type ModelMessage = UserMessage | AssistantMessage | ToolResultMessage;

/** One model turn, provider-neutral. */
export type ModelRequest = {
  /** The agent slug the turn is for (`criativo`, `po`, …); the scripted provider keys its cursor on it. */
  agent: string;
  system: string;
  messages: ModelMessage[];
  tools: ToolDefinition[];
  maxOutputTokens: number;
  temperature?: number;
  /**
   * A key stable for one lane (project, session, agent) and different between lanes, set by the gateway: an
   * OpenAI endpoint that takes `prompt_cache_key` routes the lane's requests to the same prompt cache.
   */
  cacheKey?: string;
};

/** Why the model stopped. `other` covers provider reasons with no neutral equivalent. */
export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'error' | 'other';

export type TextDeltaPart = { type: 'text-delta'; text: string };

type ToolCallFields = { type: 'tool-call'; id: string; name: string; rawArguments: string };

/**
 * A complete tool call. When the model wrote arguments that are not a JSON object, the call is still
 * emitted (never a crash): `arguments` is undefined and `parseError` says why, so the loop can send the
 * problem back to the model as the tool result.
 */
export type ToolCallPart =
  | (ToolCallFields & { arguments: Record<string, unknown>; parseError?: undefined })
  | (ToolCallFields & { arguments: undefined; parseError: string });

/**
 * Token usage of the turn; `estimated` is true when the provider did not report it. `inputTokens` is all the
 * input the call consumed; of it, `cachedInputTokens` were read from the provider's prompt cache and
 * `cacheWriteInputTokens` written to it, when the provider reports them (both are billed at their own rates).
 */
export type UsagePart = {
  type: 'usage';
  inputTokens: number;
  outputTokens: number;
  estimated: boolean;
  cachedInputTokens?: number;
  cacheWriteInputTokens?: number;
};

export type FinishPart = { type: 'finish'; reason: FinishReason };

/**
 * What a stream yields, in this order: `text-delta` and `tool-call` parts, then exactly one `usage`,
 * then exactly one `finish` as the last part. Failures are thrown from iteration as ProviderError
 * subclasses, never yielded.
 */
export type ModelStreamPart = TextDeltaPart | ToolCallPart | UsagePart | FinishPart;

export type ModelStreamOptions = { signal: AbortSignal };

/** A model provider: `name` and `model` identify it in metering (`openai` / `gpt-4o-mini`). */
export type ModelProvider = {
  name: string;
  model: string;
  /**
   * Starts one model turn. Nothing happens until the first part is requested; aborting `signal` ends
   * the stream with ProviderCancelledError and releases the underlying connection.
   */
  stream(request: ModelRequest, options: ModelStreamOptions): AsyncIterable<ModelStreamPart>;
};
