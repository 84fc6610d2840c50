/**
 * Test helpers for whoever tests code on top of the providers (gateway, ToolLoop, end-to-end, bench):
 * local servers speaking each provider's real wire format, their builders, and the port's contract.
 * Imported only from tests and benchmarks; `describeModelProviderContract` loads vitest.
 */
export { startSseTestServer } from './start-sse-test-server.ts';
export { startAnthropicTestServer, startOpenAiTestServer } from './start-provider-test-servers.ts';
export {
  startAnthropicModelServer,
  startOllamaTestServer,
  startVllmTestServer,
  type AnthropicTestModel,
  type OllamaTestModel,
  type OllamaTestServer,
  type VllmTestModel,
} from './start-model-servers.ts';
export { scriptedWireHandler, type ScriptedWireOptions } from './scripted-wire-handler.ts';
export {
  anthropicCacheBreakpoints,
  fromAnthropicRequestBody,
  fromOpenAiRequestBody,
} from './from-wire-request.ts';
export type {
  ExchangeOutcome,
  RecordedRequest,
  SseTestServer,
  StreamStep,
  TestServerHandler,
  TestServerResponse,
  TestServerRoute,
} from './sse-test-server-types.ts';
export { serverSentEventFrame } from './server-sent-event-frame.ts';
export { chunkText, type WireTurn } from './wire-turn.ts';
export {
  openAiChunk,
  openAiDone,
  openAiErrorChunk,
  openAiHttpError,
  openAiStream,
  openAiUsageChunk,
} from './openai-wire.ts';
export {
  anthropicErrorEvent,
  anthropicEvent,
  anthropicHttpError,
  anthropicMessageStart,
  anthropicStream,
} from './anthropic-wire.ts';
export {
  createManualTimeoutScheduler,
  type ManualTimeoutScheduler,
} from './manual-timeout-scheduler.ts';
export { collectStream, joinText, type StreamOutcome } from './collect-stream.ts';
export {
  contractAgent,
  contractRequest,
  scenarioToWireTurn,
  toWireTurn,
  type ContractFixture,
  type ContractScenario,
  type ContractTurn,
} from './contract-scenario.ts';
export { describeModelProviderContract } from './describe-model-provider-contract.ts';
export { recordingRequests } from './recording-provider.ts';
