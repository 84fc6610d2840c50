import type { ExpectationCheck } from '../errors/script-expectation-error.ts';
import type { ModelMessage, ModelRequest } from '../model-provider.ts';
import type { ScriptedExpectation } from './script-schema.ts';

/** How a request fails a turn's `expect`: the first check that fails, in words for the error. */
export type ExpectationMismatch = { check: ExpectationCheck; expected: string; received: string };

/**
 * Checks a request against a scripted turn's `expect`: every `system` substring in the system prompt,
 * the `messages` substrings one after another through the serialized messages (each found after the
 * end of the one before), every `tools` name offered, the output cap `max_output_tokens`. Undefined when all hold.
 */
export function matchExpectation(
  expectation: ScriptedExpectation | undefined,
  request: ModelRequest,
): ExpectationMismatch | undefined {
  if (expectation === undefined) return undefined;
  const instructions = instructionsOf(request);
  const missingInSystem = (expectation.system ?? []).find(
    (substring) => !instructions.includes(substring),
  );
  if (missingInSystem !== undefined) {
    return {
      check: 'system',
      expected: `the system prompt to contain ${quote(missingInSystem)}`,
      received: `a system prompt of ${instructions.length} characters: ${quote(abridge(instructions, 240))}`,
    };
  }
  const messages = expectation.messages ?? [];
  if (messages.length > 0) {
    const serialized = request.messages.map(serializeMessage);
    const text = serialized.join('\n');
    let from = 0;
    for (const [position, substring] of messages.entries()) {
      const found = text.indexOf(substring, from);
      if (found >= 0) {
        from = found + substring.length;
        continue;
      }
      const after =
        position === 0 ? '' : ` after ${quote(abridge(messages[position - 1] ?? '', 60))}`;
      return {
        check: 'messages',
        expected: `the messages to contain ${quote(substring)}${after}`,
        received: describeMessages(serialized),
      };
    }
  }
  const offered = request.tools.map((tool) => tool.name);
  const missingTool = (expectation.tools ?? []).find((name) => !offered.includes(name));
  if (missingTool !== undefined) {
    return {
      check: 'tools',
      expected: `the tool ${quote(missingTool)} to be offered`,
      received: offered.length === 0 ? 'no tools' : `the tools ${offered.join(', ')}`,
    };
  }
  const cap = expectation.max_output_tokens;
  if (cap !== undefined && request.maxOutputTokens !== cap)
    return {
      check: 'max_output_tokens',
      expected: `an output cap of ${cap} tokens`,
      received: `an output cap of ${request.maxOutputTokens} tokens`,
    };
  return undefined;
}

/**
 * The system prompt as the model reads it: the lane's pinned prompt, then the context update after the history,
 * which holds what changed in it since (ADR 0430).
 */
function instructionsOf(request: ModelRequest): string {
  const updates = request.messages.flatMap((message) =>
    message.role === 'user' && message.contextUpdate === true ? [message.content] : [],
  );
  return [request.system, ...updates].join('\n\n');
}

/** One message as `expect.messages` searches it: its role, its text, and its tool calls' names and arguments. */
export function serializeMessage(message: ModelMessage): string {
  if (message.role === 'user') return `user: ${message.content}`;
  if (message.role === 'tool') return `tool: ${message.content}`;
  const calls = (message.toolCalls ?? [])
    .map((call) => ` ${call.name}(${call.rawArguments})`)
    .join('');
  return `assistant: ${message.content}${calls}`;
}

const shownMessages = 8;

function describeMessages(serialized: string[]): string {
  if (serialized.length === 0) return 'no messages';
  const shown = serialized.slice(-shownMessages).map((message) => quote(abridge(message, 100)));
  const earlier =
    serialized.length > shownMessages
      ? `… ${serialized.length - shownMessages} earlier, then `
      : '';
  return `${serialized.length} message${serialized.length === 1 ? '' : 's'}: ${earlier}${shown.join(' · ')}`;
}

/** Text cut to about `limit` characters, keeping its start and end, whitespace runs folded. */
export function abridge(text: string, limit: number): string {
  const folded = text.replace(/\s+/g, ' ').trim();
  if (folded.length <= limit) return folded;
  const head = Math.ceil(limit * 0.6);
  const tail = limit - head;
  return `${folded.slice(0, head)} … ${folded.slice(folded.length - tail)}`;
}

const quote = (text: string): string => JSON.stringify(text);
