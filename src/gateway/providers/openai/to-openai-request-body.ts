import type { ModelMessage, ModelRequest, ToolDefinition } from '../model-provider.ts';
import type { StrictToolPlan } from '../strict/plan-strict-tools.ts';

/** Which field carries the output limit; see `toOpenAiRequestBody`. */
export type OpenAiMaxTokensField = 'max_tokens' | 'max_completion_tokens';

/**
 * The Chat Completions body for a turn. OpenAI itself wants `max_completion_tokens` (its reasoning
 * models refuse `max_tokens`), while many compatible servers only know `max_tokens`; the adapter picks
 * by base URL and lets the caller override.
 */
export function toOpenAiRequestBody(fields: {
  model: string;
  request: ModelRequest;
  maxTokensField: OpenAiMaxTokensField;
  /** Tools declared `strict: true`, with the schema each is sent with (null: none). */
  strict?: StrictToolPlan | null;
  /** Send the request's lane key as `prompt_cache_key`, so the lane's requests meet the same prompt cache. */
  promptCache?: boolean;
}): Record<string, unknown> {
  const { request } = fields;
  const system = request.system === '' ? [] : [{ role: 'system', content: request.system }];
  return {
    model: fields.model,
    messages: [...system, ...request.messages.map(toOpenAiMessage)],
    ...(request.tools.length === 0
      ? {}
      : {
          tools: request.tools.map((tool) => toOpenAiTool(tool, fields.strict ?? null)),
        }),
    [fields.maxTokensField]: request.maxOutputTokens,
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(fields.promptCache === true && request.cacheKey !== undefined
      ? { prompt_cache_key: request.cacheKey }
      : {}),
    stream: true,
    stream_options: { include_usage: true },
  };
}

/** A function tool; with its strict schema and `strict: true` when the plan has one for it. */
export function toOpenAiTool(
  tool: ToolDefinition,
  strict: StrictToolPlan | null,
): Record<string, unknown> {
  const schema = strict?.schemas.get(tool.name);
  return {
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: schema ?? tool.parameters,
      ...(schema === undefined ? {} : { strict: true }),
    },
  };
}

function toOpenAiMessage(message: ModelMessage): Record<string, unknown> {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant': {
      const toolCalls = message.toolCalls ?? [];
      if (toolCalls.length === 0) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        // The documented value for "only tool calls" is null, not an empty string.
        content: message.content === '' ? null : message.content,
        tool_calls: toolCalls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.rawArguments },
        })),
      };
    }
  }
}
