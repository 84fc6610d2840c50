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
  /** Mark cache breakpoints (`cache_control`) so the provider caches the request's stable prefix. */
  promptCache?: boolean;
}): Record<string, unknown> {
  const { request } = fields;
  const cache = fields.promptCache === true;
  // The blocks of a context update (ADR 0430): a breakpoint stands before one, where the next call goes on.
  const updates = new Set<AnthropicBlock>();
  const messages = mergeConsecutiveUserMessages(
    request.messages.map((message) => toAnthropicMessage(message, updates)),
  );
  const tools = request.tools.map((tool) => toAnthropicTool(tool, fields.strict ?? null));
  if (cache) markCacheBreakpoints(tools, messages, updates);
  return {
    model: fields.model,
    max_tokens: request.maxOutputTokens,
    ...(request.system === ''
      ? {}
      : {
          system: cache
            ? [{ type: 'text', text: request.system, cache_control: EPHEMERAL }]
            : request.system,
        }),
    messages,
    ...(tools.length === 0 ? {} : { tools }),
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

function toAnthropicMessage(message: ModelMessage, updates: Set<AnthropicBlock>): AnthropicMessage {
  switch (message.role) {
    case 'user': {
      if (message.contextUpdate !== true) return { role: 'user', content: message.content };
      const block = { type: 'text', text: message.content };
      updates.add(block);
      return { role: 'user', content: [block] };
    }
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

const EPHEMERAL = { type: 'ephemeral' } as const;

/**
 * The cache breakpoints besides the system block's (the cache prefix runs tools, system, messages): the last
 * tool; the history's last block (before a context update, which changes on every call), a rolling one the
 * next request reads back; and the last block of the user turn before the last assistant turn, where the
 * previous request's rolling breakpoint stood, so a turn that added more than the provider's 20-block lookback
 * still hits it. Four at most, as the API allows.
 */
function markCacheBreakpoints(
  tools: AnthropicBlock[],
  messages: AnthropicMessage[],
  updates: ReadonlySet<AnthropicBlock>,
): void {
  const lastTool = tools.at(-1);
  if (lastTool !== undefined) lastTool.cache_control = EPHEMERAL;
  const last = messages.length - 1;
  markLastBlock(messages, last, updates);
  const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant');
  const previousUser = messages.findLastIndex(
    (message, index) => index < lastAssistant && message.role === 'user',
  );
  if (previousUser >= 0 && previousUser !== last) markLastBlock(messages, previousUser, updates);
}

// Not on an empty text block: the API refuses a breakpoint there (and an empty text block at all). Not on a
// context update either: the block before it, the history's last (a message that is all update gets none).
function markLastBlock(
  messages: AnthropicMessage[],
  index: number,
  updates: ReadonlySet<AnthropicBlock>,
): void {
  const message = messages[index];
  if (message === undefined) return;
  const blocks = toBlocks(message.content);
  const block = blocks.findLast((candidate) => !updates.has(candidate));
  if (block === undefined || (block.type === 'text' && block.text === '')) return;
  block.cache_control = EPHEMERAL;
  message.content = blocks;
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
