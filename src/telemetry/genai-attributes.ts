import type { GatewayTurnOutcome, ModelMessage } from '../gateway/index.ts';

/**
 * The GenAI attribute names of OpenTelemetry semantic conventions v1.45.0 (ADR 0370). Written out here rather
 * than imported: the package marks them experimental, and a minor release may rename them; these stay what
 * ADR 0370 pins until it is amended.
 */
export const GENAI = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  agentName: 'gen_ai.agent.name',
  conversationId: 'gen_ai.conversation.id',
  requestModel: 'gen_ai.request.model',
  requestMaxTokens: 'gen_ai.request.max_tokens',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheCreationInputTokens: 'gen_ai.usage.cache_creation.input_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  // Content: only with FORJA_OTEL_CAPTURE_CONTENT=true.
  systemInstructions: 'gen_ai.system_instructions',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
} as const;

/** Forja's own attributes beside the GenAI ones. */
export const FORJA = {
  projectId: 'forja.project.id',
  sessionId: 'forja.session.id',
  turnId: 'forja.turn.id',
  usageEstimated: 'forja.usage.estimated',
} as const;

type Part =
  | { type: 'text'; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments: string }
  | { type: 'tool_call_response'; id: string; response: string };

/** Forja's messages in the conventions' message shape (role and parts), as the JSON a span attribute holds. */
export function inputMessagesJson(messages: readonly ModelMessage[]): string {
  return JSON.stringify(
    messages.map((message) => {
      if (message.role === 'tool')
        return {
          role: 'tool',
          parts: [
            { type: 'tool_call_response', id: message.toolCallId, response: message.content },
          ],
        };
      const parts: Part[] = [{ type: 'text', content: message.content }];
      if (message.role === 'assistant')
        for (const call of message.toolCalls ?? [])
          parts.push({
            type: 'tool_call',
            id: call.id,
            name: call.name,
            arguments: call.rawArguments,
          });
      return { role: message.role, parts };
    }),
  );
}

/** A completed call's answer in the conventions' output message shape. */
export function outputMessagesJson(
  outcome: Extract<GatewayTurnOutcome, { status: 'completed' }>,
): string {
  const parts: Part[] = [
    { type: 'text', content: outcome.text },
    ...outcome.toolCalls.map((call) => ({
      type: 'tool_call' as const,
      id: call.id,
      name: call.name,
      arguments: call.rawArguments,
    })),
  ];
  return JSON.stringify([{ role: 'assistant', parts, finish_reason: outcome.finishReason }]);
}
