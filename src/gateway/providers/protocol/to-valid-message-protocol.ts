import type {
  AssistantMessage,
  ModelMessage,
  ModelToolCall,
  ToolResultMessage,
  UserMessage,
} from '../model-provider.ts';
import { hasToolCalls, type ProtocolRequest } from './message-protocol-violations.ts';

/** The person's turn added when a request would otherwise start without one or end on the assistant. */
export const GO_ON_MESSAGE = 'Go on with the task the system prompt gives.';
/** The result of a call whose result the log never got (the turn ended between the call and its run). */
export const NO_RESULT_RECORDED =
  'No result was recorded for this call: the turn ended before it ran.';

/**
 * The request with its messages put in the order the strictest provider accepts (see
 * `messageProtocolViolations`), losing nothing the model should read:
 * - a message that arrived while tool calls ran (the person's, in the log between a call and its result)
 *   moves after that call's results; a call with no result gets `NO_RESULT_RECORDED`;
 * - a result that answers no open call, or any tool traffic in a request that offers no tools, is kept
 *   as text;
 * - empty messages are dropped, a reused call id is renamed, and the person's `GO_ON_MESSAGE` opens or closes
 *   a request that would start without the person or end on the assistant.
 * Pure and idempotent; a request that is already valid comes back with equal messages.
 */
export function toValidMessageProtocol<R extends ProtocolRequest>(request: R): R {
  let messages = pairToolResults(request.messages);
  if (request.tools.length === 0) messages = toolTrafficAsText(messages);
  messages = messages.filter((message) => !isEmpty(message));
  if (messages[0]?.role !== 'user') messages.unshift({ role: 'user', content: GO_ON_MESSAGE });
  if (messages.at(-1)?.role === 'assistant')
    messages.push({ role: 'user', content: GO_ON_MESSAGE });
  return { ...request, messages };
}

function pairToolResults(messages: readonly ModelMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  const consumed = new Set<number>();
  const usedIds = new Set<string>();
  messages.forEach((message, index) => {
    if (consumed.has(index)) return;
    if (message.role === 'tool') out.push(resultAsText(message, undefined));
    else if (message.role === 'assistant' && hasToolCalls(message))
      out.push(...toolBlock(messages, message, index, { consumed, usedIds }));
    else out.push(message);
  });
  return out;
}

/** The assistant's calls at `index`, then one result per call, taken from before the next assistant message. */
function toolBlock(
  messages: readonly ModelMessage[],
  assistant: AssistantMessage,
  index: number,
  { consumed, usedIds }: { consumed: Set<number>; usedIds: Set<string> },
): ModelMessage[] {
  const calls: ModelToolCall[] = [];
  const results: ToolResultMessage[] = [];
  for (const call of assistant.toolCalls ?? []) {
    const id = uniqueId(call.id, usedIds);
    const result = takeResult(messages, index, call.id, consumed);
    calls.push({ ...call, id });
    results.push(
      result === undefined
        ? { role: 'tool', toolCallId: id, content: NO_RESULT_RECORDED, isError: true }
        : { ...result, toolCallId: id },
    );
  }
  return [{ ...assistant, toolCalls: calls }, ...results];
}

/** The first unconsumed result of `callId` after `from` and before the next assistant message, now consumed. */
function takeResult(
  messages: readonly ModelMessage[],
  from: number,
  callId: string,
  consumed: Set<number>,
): ToolResultMessage | undefined {
  for (let at = from + 1; at < messages.length; at += 1) {
    const message = messages[at];
    if (message === undefined || message.role === 'assistant') return undefined;
    if (message.role === 'tool' && message.toolCallId === callId && !consumed.has(at)) {
      consumed.add(at);
      return message;
    }
  }
  return undefined;
}

function uniqueId(id: string, usedIds: Set<string>): string {
  let candidate = id;
  for (let n = 2; usedIds.has(candidate); n += 1) candidate = `${id}~${n}`;
  usedIds.add(candidate);
  return candidate;
}

/** Tool traffic written out for a request that offers no tools: the model reads what was called and said. */
function toolTrafficAsText(messages: readonly ModelMessage[]): ModelMessage[] {
  const names = new Map<string, string>();
  return messages.map((message): ModelMessage => {
    if (message.role === 'tool') return resultAsText(message, names.get(message.toolCallId));
    if (message.role !== 'assistant' || !hasToolCalls(message)) return message;
    const calls = message.toolCalls ?? [];
    for (const call of calls) names.set(call.id, call.name);
    const lines = calls.map((call) => `[called ${call.name} ${call.rawArguments}]`);
    return { role: 'assistant', content: [message.content, ...lines].filter(Boolean).join('\n') };
  });
}

function resultAsText(message: ToolResultMessage, name: string | undefined): UserMessage {
  const what = name === undefined ? `tool call ${message.toolCallId}` : name;
  return { role: 'user', content: `[result of ${what}] ${message.content}` };
}

const isEmpty = (message: ModelMessage): boolean =>
  (message.role === 'user' && message.content.trim() === '') ||
  (message.role === 'assistant' && message.content.trim() === '' && !hasToolCalls(message));
