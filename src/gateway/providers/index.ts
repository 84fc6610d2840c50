/**
 * The public surface of the model providers. The gateway imports from here; agent code must not
 * (it receives the gateway interface instead). Test helpers live apart in `./testing/index.ts` so
 * production code never loads vitest or the test servers.
 */
export type {
  AssistantMessage,
  FinishPart,
  FinishReason,
  JsonSchema,
  ModelMessage,
  ModelProvider,
  ModelRequest,
  ModelStreamOptions,
  ModelStreamPart,
  ModelToolCall,
  TextDeltaPart,
  ToolCallPart,
  ToolDefinition,
  ToolResultMessage,
  UsagePart,
  UserMessage,
} from './model-provider.ts';

export { ProviderError } from './errors/provider-error.ts';
export { ProviderHttpError } from './errors/provider-http-error.ts';
export { ProviderStreamError } from './errors/provider-stream-error.ts';
export { ProviderTimeoutError, type TimeoutPhase } from './errors/provider-timeout-error.ts';
export { ProviderCancelledError } from './errors/provider-cancelled-error.ts';
export { ProviderConnectionError } from './errors/provider-connection-error.ts';
export { ScriptExhaustedError } from './errors/script-exhausted-error.ts';
export {
  ScriptExpectationError,
  type ExpectationCheck,
} from './errors/script-expectation-error.ts';
export { ScriptInvalidError, type ScriptIssue } from './errors/script-invalid-error.ts';
export {
  ModelNotConfiguredError,
  type ModelConfigurationProblem,
} from './errors/model-not-configured-error.ts';
export { isRetryableProviderError } from './errors/is-retryable-provider-error.ts';

export {
  createOpenAiProvider,
  openAiDefaultBaseUrl,
  type OpenAiProviderOptions,
} from './openai/create-openai-provider.ts';
export type { OpenAiMaxTokensField } from './openai/to-openai-request-body.ts';
export {
  anthropicApiVersion,
  anthropicDefaultBaseUrl,
  createAnthropicProvider,
  type AnthropicProviderOptions,
} from './anthropic/create-anthropic-provider.ts';
export {
  createScriptedProvider,
  type ScriptedProvider,
  type ScriptedProviderOptions,
  type ScriptPosition,
} from './scripted/create-scripted-provider.ts';
export { loadScriptedProvider } from './scripted/load-scripted-provider.ts';
export { parseScriptText, validateScript } from './scripted/parse-script.ts';
export type {
  Script,
  ScriptInput,
  ScriptedExpectation,
  ScriptedTurn,
} from './scripted/script-schema.ts';

export {
  defaultProviderTimeouts,
  realTimeoutScheduler,
  type ProviderTimeouts,
  type TimeoutScheduler,
} from './http/provider-timeouts.ts';
export {
  defaultRetryOptions,
  withRetries,
  type RetryNotice,
  type RetryOptions,
} from './retry/with-retries.ts';
export type { Sleep } from './retry/sleep-unless-cancelled.ts';
export {
  estimateRequestTokens,
  estimateTokens,
  reservableInputTokens,
  requestBytes,
} from './shared/estimate-tokens.ts';

export {
  createProviderFromConfig,
  type ProviderConfigOptions,
  type ProviderConfigResult,
  type ProviderEnvironment,
} from './config/create-provider-from-config.ts';
export {
  AGENT_MODEL_KINDS,
  agentModelKind,
  agentModelVariable,
  type AgentModelKind,
} from './config/agent-model-kinds.ts';
export {
  createModelRouting,
  isModelRouting,
  singleModelRouting,
  type AgentModelAssignment,
  type ModelRouting,
  type ProviderOrReason,
} from './config/create-model-routing.ts';
export type { ModelEndpoint } from './config/read-model-endpoint.ts';
export type { ServerWindow } from './windows/server-window.ts';
export {
  createEndpointProbe,
  createModelProbe,
  type ModelProbe,
  type ProbeResult,
} from './config/create-model-probe.ts';
export { messageProtocolViolations } from './protocol/message-protocol-violations.ts';
export {
  GO_ON_MESSAGE,
  NO_RESULT_RECORDED,
  toValidMessageProtocol,
} from './protocol/to-valid-message-protocol.ts';
