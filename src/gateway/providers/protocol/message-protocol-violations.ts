import type { ModelMessage, ModelRequest } from '../model-provider.ts';

/** What of a request the message protocol is about. */
export type ProtocolRequest = Pick<ModelRequest, 'messages' | 'tools'>;

/**
 * Where a request breaks the message protocol of the strictest provider we speak to (the intersection of
 * OpenAI's Chat Completions and Anthropic's Messages rules), one sentence per break, `[]` when valid:
 * - the first message is the person's (`user`), and the last is not the assistant's (no prefill);
 * - an assistant's `toolCalls` are followed at once by one `tool` result per call, before anything else;
 * - a `tool` result answers a call of the assistant message just before its block, once;
 * - tool calls and results are sent only with tools offered;
 * - no empty user message, no empty assistant message without tool calls; tool-call ids are unique.
 */
export function messageProtocolViolations(request: ProtocolRequest): string[] {
  const { messages } = request;
  const violations: string[] = [];
  if (messages.length === 0) return ['the request has no message'];
  if (messages[0]?.role !== 'user') violations.push(`message 0 is ${messages[0]?.role}, not user`);
  if (messages.at(-1)?.role === 'assistant')
    violations.push('the request ends on an assistant message');
  violations.push(...toolBlockViolations(messages, request.tools.length > 0));
  messages.forEach((message, index) => {
    if (message.role === 'user' && message.content.trim() === '')
      violations.push(`message ${index} is an empty user message`);
    if (message.role === 'assistant' && message.content.trim() === '' && !hasToolCalls(message))
      violations.push(`message ${index} is an empty assistant message`);
  });
  return violations;
}

function toolBlockViolations(messages: readonly ModelMessage[], toolsOffered: boolean): string[] {
  const violations: string[] = [];
  const seenIds = new Set<string>();
  let open = new Set<string>();
  messages.forEach((message, index) => {
    if (message.role === 'tool') {
      if (!toolsOffered) violations.push(`message ${index} is a tool result sent without tools`);
      if (!open.delete(message.toolCallId))
        violations.push(`message ${index} answers ${message.toolCallId}, not an open call`);
      return;
    }
    if (open.size > 0)
      violations.push(
        `message ${index} (${message.role}) comes before the results of ${[...open].join(', ')}`,
      );
    open = new Set();
    if (message.role !== 'assistant' || !hasToolCalls(message)) return;
    if (!toolsOffered) violations.push(`message ${index} has tool calls but no tool is offered`);
    for (const call of message.toolCalls ?? []) {
      if (seenIds.has(call.id)) violations.push(`tool call id ${call.id} is used twice`);
      seenIds.add(call.id);
      open.add(call.id);
    }
  });
  if (open.size > 0) violations.push(`the results of ${[...open].join(', ')} are missing`);
  return violations;
}

export const hasToolCalls = (message: ModelMessage): boolean =>
  message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0;
