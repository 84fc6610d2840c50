import type {
  ModelMessage,
  ModelRequest,
  ModelToolCall,
  ToolDefinition,
} from '../model-provider.ts';
import type { StrictToolPlan } from '../strict/plan-strict-tools.ts';

type AnthropicBlock = Record<string, unknown>;
type AnthropicMessage = { role: 'user' | 'assistant'; content: string | AnthropicBlock[] };

/**
 * The Messages API body for a turn. The system prompt is its own field; tool results travel as
 * `tool_result` blocks in a user message, and consecutive user-side messages are merged because the
 * API expects every result of one assistant turn together in the next user turn.
 */
export function toAnthropicRequestBody(fields: {
  model: string;
  request: ModelRequest;
  /** Tools declared `strict: true`, with the schema each is sent with (null: none). */
  strict?: StrictToolPlan | null;
}): Record<string, unknown> {
  const { request } = fields;
  return {
    model: fields.model,
    max_tokens: request.maxOutputTokens,
    ...(request.system === '' ? {} : { system: request.system }),
    messages: mergeConsecutiveUserMessages(request.messages.map(toAnthropicMessage)),
    ...(request.tools.length === 0
      ? {}
      : {
          tools: request.tools.map((tool) => toAnthropicTool(tool, fields.strict ?? null)),
        }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    stream: true,
  };
}

/** A tool; with its strict schema and `strict: true` when the plan has one for it. */
export function toAnthropicTool(
  tool: ToolDefinition,
  strict: StrictToolPlan | null,
): Record<string, unknown> {
  const schema = strict?.schemas.get(tool.name);
  return {
    name: tool.name,
    description: tool.description,
    input_schema: schema ?? tool.parameters,
    ...(schema === undefined ? {} : { strict: true }),
  };
}

function toAnthropicMessage(message: ModelMessage): AnthropicMessage {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.content };
    case 'tool':
      return {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: message.toolCallId,
            content: message.content,
            ...(message.isError ? { is_error: true } : {}),
          },
        ],
      };
    case 'assistant': {
      const toolCalls = message.toolCalls ?? [];
      if (toolCalls.length === 0) return { role: 'assistant', content: message.content };
      const text = message.content === '' ? [] : [{ type: 'text', text: message.content }];
      return { role: 'assistant', content: [...text, ...toolCalls.map(toToolUseBlock)] };
    }
  }
}

function toToolUseBlock(call: ModelToolCall): AnthropicBlock {
  return { type: 'tool_use', id: call.id, name: call.name, input: toToolInput(call.rawArguments) };
}

// The API takes `input` as an object, so arguments the model broke cannot be replayed verbatim; the
// tool result that follows already tells the model what was wrong with them.
function toToolInput(rawArguments: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(rawArguments);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function mergeConsecutiveUserMessages(messages: AnthropicMessage[]): AnthropicMessage[] {
  const merged: AnthropicMessage[] = [];
  for (const message of messages) {
    const previous = merged.at(-1);
    if (previous === undefined || previous.role !== 'user' || message.role !== 'user') {
      merged.push(message);
      continue;
    }
    previous.content = [...toBlocks(previous.content), ...toBlocks(message.content)];
  }
  return merged;
}

function toBlocks(content: string | AnthropicBlock[]): AnthropicBlock[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}
