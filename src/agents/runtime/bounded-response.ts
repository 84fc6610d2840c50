import type { RecordedToolCall } from '../../domain/conversation/index.ts';
import { hasUnstorableText, MAX_STORABLE_DEPTH } from '../../lib/storable-text.ts';
import type { OutputLimits } from './output-limits.ts';

/** A tool call as the gateway hands it over: the model's own text of the arguments and what it parsed to. */
export interface ModelToolCall {
  id: string;
  name: string;
  rawArguments: string;
  arguments?: Record<string, unknown> | undefined;
  parseError?: string | undefined;
}

/** How many calls' worth of arguments (`maxToolArgumentChars`) one answer's calls may take together. */
export const ANSWER_ARGUMENT_CALLS = 4;

/** The longest tool call id or tool name kept; a longer one is cut (it is the model's text, not a key of ours). */
export const MAX_TOOL_NAME_CHARS = 256;

/**
 * What Forja stores of one model answer (ADR 0306): at most `maxAnswerChars` of its text, with a note saying
 * where it was cut; at most `maxToolCalls` calls, plus one refused call that tells the model the rest were not
 * taken; a call whose arguments are longer than `maxToolArgumentChars` (or would bring the answer's past four
 * times that), nested too deep, or hold a NUL or a lone surrogate is recorded without them and refused (`refused`: the tool result the model reads). Pure.
 */
export function boundedResponse(
  text: string,
  toolCalls: readonly ModelToolCall[],
  limits: OutputLimits,
): { text: string; toolCalls: RecordedToolCall[] } {
  // One answer's calls together take at most four calls' worth of arguments: 64 calls of 2 Mi each would not.
  let budget = ANSWER_ARGUMENT_CALLS * limits.maxToolArgumentChars;
  const taken = toolCalls.slice(0, limits.maxToolCalls).map((call) => {
    const recorded = boundedCall(call, limits, budget);
    if (recorded.refused === undefined) budget -= call.rawArguments.length;
    return recorded;
  });
  const first = toolCalls[limits.maxToolCalls];
  if (first !== undefined) {
    const left = toolCalls.length - limits.maxToolCalls;
    taken.push({
      ...idAndName(first),
      arguments: null,
      refused: `This answer made ${toolCalls.length} tool calls; Forja takes at most ${limits.maxToolCalls} from one answer (FORJA_MAX_TOOL_CALLS). The first ${limits.maxToolCalls} were taken; the other ${left}, from this one on, were not run and are not recorded. Make the calls you still need in your next answers, at most ${limits.maxToolCalls} at a time.`,
    });
  }
  return { text: boundedText(text, limits.maxAnswerChars), toolCalls: taken };
}

/** `text` cut at `max` characters (never inside a surrogate pair) with a note for the model, or `text` itself. */
export function boundedText(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, end)}\n\n[Forja cut this answer at ${max} characters (FORJA_MAX_ANSWER_CHARS); the other ${text.length - end} characters were not stored.]`;
}

function boundedCall(call: ModelToolCall, limits: OutputLimits, budget: number): RecordedToolCall {
  const recorded = idAndName(call);
  const refuse = (why: string): RecordedToolCall => ({
    ...recorded,
    arguments: null,
    refused: `The arguments of ${recorded.name} ${why}. Nothing was run; call it again with arguments that fit.`,
  });
  if (call.rawArguments.length > limits.maxToolArgumentChars)
    return refuse(
      `were ${call.rawArguments.length} characters; Forja takes at most ${limits.maxToolArgumentChars} for one call (FORJA_MAX_TOOL_ARGUMENT_CHARS) — write a large file in parts`,
    );
  if (call.rawArguments.length > budget)
    return refuse(
      `would bring this answer's arguments past ${ANSWER_ARGUMENT_CALLS * limits.maxToolArgumentChars} characters in all (${ANSWER_ARGUMENT_CALLS} × FORJA_MAX_TOOL_ARGUMENT_CHARS) — make this call in your next answer`,
    );
  if (call.parseError !== undefined)
    return { ...recorded, arguments: null, parse_error: call.parseError };
  const problem = unstorableAt(call.arguments ?? {});
  if (problem !== null) return refuse(problem);
  return { ...recorded, arguments: call.arguments ?? {} };
}

function idAndName(call: ModelToolCall): { id: string; name: string } {
  return {
    id: call.id.slice(0, MAX_TOOL_NAME_CHARS) || 'call',
    name: call.name.slice(0, MAX_TOOL_NAME_CHARS) || '(no name)',
  };
}

/**
 * Why arguments cannot be passed on as the model wrote them: nested deeper than Forja stores, or a text in
 * them (a value or a key) with a NUL or a lone surrogate — stored, it would become U+FFFD and the tool would
 * run something the model did not write. Null when they are fine. Walked without recursion.
 */
export function unstorableAt(value: unknown): string | null {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [
    { value, path: '', depth: 0 },
  ];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const at = item.path === '' ? 'the arguments' : item.path;
    if (typeof item.value === 'string') {
      if (hasUnstorableText(item.value))
        return `hold a NUL character or a lone surrogate at ${at}, which Forja neither stores nor passes on`;
      continue;
    }
    if (typeof item.value !== 'object' || item.value === null) continue;
    if (item.depth >= MAX_STORABLE_DEPTH)
      return `are nested deeper than ${MAX_STORABLE_DEPTH} levels (at ${at})`;
    for (const [key, child] of Object.entries(item.value)) {
      // Cut, so a deep value with long keys cannot make its paths grow past the arguments' own size.
      const path = (
        Array.isArray(item.value) ? `${item.path}[${key}]` : `${item.path}.${key}`
      ).slice(0, MAX_PATH_CHARS);
      if (hasUnstorableText(key))
        return `hold a NUL character or a lone surrogate in a key at ${item.path || 'the arguments'}, which Forja neither stores nor passes on`;
      stack.push({ value: child, path, depth: item.depth + 1 });
    }
  }
  return null;
}

const MAX_PATH_CHARS = 200;

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
