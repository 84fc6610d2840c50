import type {
  ModelMessage,
  ModelRequest,
  ModelToolCall,
  ToolDefinition,
} from '../model-provider.ts';

type Json = Record<string, unknown>;

/**
 * The provider-neutral request an OpenAI Chat Completions body carries, as a model server reads it: the
 * system message, the history (assistant tool calls with their raw arguments, tool results by call id), the
 * function tools. `agent` is left empty: the wire does not say which agent asked.
 */
export function fromOpenAiRequestBody(body: unknown): ModelRequest {
  const record = asRecord(body);
  const system: string[] = [];
  const messages: ModelMessage[] = [];
  for (const message of asArray(record['messages']).map(asRecord)) {
    const content = typeof message['content'] === 'string' ? message['content'] : '';
    if (message['role'] === 'system') system.push(content);
    else if (message['role'] === 'user') messages.push({ role: 'user', content });
    else if (message['role'] === 'tool')
      messages.push({ role: 'tool', toolCallId: String(message['tool_call_id']), content });
    else if (message['role'] === 'assistant') {
      const toolCalls: ModelToolCall[] = asArray(message['tool_calls']).map((call) => {
        const fields = asRecord(call);
        const fn = asRecord(fields['function']);
        return {
          id: String(fields['id']),
          name: String(fn['name']),
          rawArguments: String(fn['arguments']),
        };
      });
      messages.push({
        role: 'assistant',
        content,
        ...(toolCalls.length > 0 ? { toolCalls } : {}),
      });
    }
  }
  const tools: ToolDefinition[] = asArray(record['tools']).map((tool) => {
    const fn = asRecord(asRecord(tool)['function']);
    return {
      name: String(fn['name']),
      description: String(fn['description'] ?? ''),
      parameters: asRecord(fn['parameters']),
    };
  });
  const maxOutputTokens = record['max_completion_tokens'] ?? record['max_tokens'];
  return {
    agent: '',
    system: system.join('\n'),
    messages,
    tools,
    maxOutputTokens: typeof maxOutputTokens === 'number' ? maxOutputTokens : 0,
    ...(typeof record['prompt_cache_key'] === 'string'
      ? { cacheKey: record['prompt_cache_key'] }
      : {}),
  };
}

/**
 * The provider-neutral request an Anthropic Messages body carries: `system`, user turns whose `tool_result`
 * blocks become tool messages, assistant turns whose `tool_use` blocks become tool calls, the tools.
 */
export function fromAnthropicRequestBody(body: unknown): ModelRequest {
  const record = asRecord(body);
  const messages: ModelMessage[] = [];
  for (const message of asArray(record['messages']).map(asRecord)) {
    const blocks =
      typeof message['content'] === 'string'
        ? [{ type: 'text', text: message['content'] }]
        : asArray(message['content']).map(asRecord);
    if (message['role'] === 'user')
      for (const block of blocks) {
        if (block['type'] === 'tool_result')
          messages.push({
            role: 'tool',
            toolCallId: String(block['tool_use_id']),
            content: typeof block['content'] === 'string' ? block['content'] : '',
            ...(block['is_error'] === true ? { isError: true } : {}),
          });
        else messages.push({ role: 'user', content: String(block['text'] ?? '') });
      }
    else {
      const text = blocks
        .filter((block) => block['type'] === 'text')
        .map((block) => String(block['text']))
        .join('');
      const toolCalls = blocks
        .filter((block) => block['type'] === 'tool_use')
        .map((block) => ({
          id: String(block['id']),
          name: String(block['name']),
          rawArguments: JSON.stringify(block['input'] ?? {}),
        }));
      messages.push({
        role: 'assistant',
        content: text,
        ...(toolCalls.length > 0 ? { toolCalls } : {}),
      });
    }
  }
  const tools: ToolDefinition[] = asArray(record['tools']).map((tool) => {
    const fields = asRecord(tool);
    return {
      name: String(fields['name']),
      description: String(fields['description'] ?? ''),
      parameters: asRecord(fields['input_schema']),
    };
  });
  return {
    agent: '',
    system: anthropicSystemText(record['system']),
    messages,
    tools,
    maxOutputTokens: typeof record['max_tokens'] === 'number' ? record['max_tokens'] : 0,
  };
}

// A string, or text blocks (as sent with a cache breakpoint).
function anthropicSystemText(system: unknown): string {
  if (typeof system === 'string') return system;
  return asArray(system)
    .map((block) => asRecord(block)['text'])
    .filter((text) => typeof text === 'string')
    .join('');
}

/** How many `cache_control` breakpoints an Anthropic body carries, and where (`tools`, `system`, `messages`). */
export function anthropicCacheBreakpoints(body: unknown): string[] {
  const record = asRecord(body);
  const marked = (value: unknown) => asRecord(value)['cache_control'] !== undefined;
  const where: string[] = [];
  asArray(record['tools']).forEach((tool, index) => marked(tool) && where.push(`tools[${index}]`));
  asArray(record['system']).forEach(
    (block, index) => marked(block) && where.push(`system[${index}]`),
  );
  asArray(record['messages']).forEach((message, index) =>
    asArray(asRecord(message)['content']).forEach(
      (block, at) => marked(block) && where.push(`messages[${index}].content[${at}]`),
    ),
  );
  return where;
}

function asRecord(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : {};
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
