import type { ChatHistoryEntry } from '../../../domain/conversation/index.ts';
import type { ModelMessage } from '../../../gateway/index.ts';
import type { Tokenizer } from '../../../harness/index.ts';

/** One history entry as it is sent, with its cost; `capped` counts the characters left out of its text. */
export interface RenderedEntry {
  readonly entry: ChatHistoryEntry;
  readonly message: ModelMessage;
  readonly tokens: number;
  readonly capped: number;
}

/**
 * The marker put where a long text was cut; the full text stays in the event, which the marker names.
 * The model reads it, so it is in the conversation's language.
 */
export function cutMarker(leftOut: number, total: number, seq: number): string {
  return `\n[… ${leftOut} de ${total} caracteres omitidos aqui; o texto completo está no evento #${seq} …]`;
}

/**
 * The message an entry becomes (the same shapes as `historyToMessages`), with its text cut to about
 * `capTokens` when longer: a 2 MB file read or a terminal dump is sent as its head and a marker.
 */
export function renderHistoryEntry(
  entry: ChatHistoryEntry,
  capTokens: number,
  tokenizer: Tokenizer,
): RenderedEntry {
  const { text, capped } = capText(
    entry.role === 'user' ? `[#${entry.seq}] ${entry.content}` : entry.content,
    capTokens,
    entry.seq,
    tokenizer,
  );
  let message: ModelMessage;
  if (entry.role === 'user') message = { role: 'user', content: text };
  else if (entry.role === 'assistant') {
    const toolCalls = (entry.tool_calls ?? []).map((call) => ({
      id: call.id,
      name: call.name,
      rawArguments: JSON.stringify(call.arguments ?? {}),
    }));
    message =
      toolCalls.length > 0
        ? { role: 'assistant', content: text, toolCalls }
        : { role: 'assistant', content: text };
  } else
    message = {
      role: 'tool',
      toolCallId: entry.tool_call_id,
      content: text,
      ...(entry.ok ? {} : { isError: true }),
    };
  return { entry, message, tokens: messageTokens(message, tokenizer), capped };
}

/**
 * A message's cost as the gateway counts a request (its JSON), plus one for the separator: summing these
 * never undercounts the whole array's JSON.
 */
export function messageTokens(message: ModelMessage, tokenizer: Tokenizer): number {
  return tokenizer.count(JSON.stringify(message)).tokens + 1;
}

function capText(
  text: string,
  capTokens: number,
  seq: number,
  tokenizer: Tokenizer,
): { text: string; capped: number } {
  // A cheap first test: the estimate never counts fewer than a quarter of the UTF-16 length's bytes.
  if (text.length <= capTokens || tokenizer.count(text).tokens <= capTokens)
    return { text, capped: 0 };
  const marker = cutMarker(text.length, text.length, seq);
  let keep = Math.max(
    0,
    Math.floor(text.length * (capTokens / Math.max(1, tokenizer.count(text).tokens))) -
      marker.length * 2,
  );
  // JSON escapes and multi-byte characters can make the head cost more than its share; shrink until it fits.
  for (;;) {
    const head = safeHead(text, keep);
    const cut = `${head}${cutMarker(text.length - head.length, text.length, seq)}`;
    if (keep === 0 || tokenizer.count(JSON.stringify(cut)).tokens <= capTokens)
      return { text: cut, capped: text.length - head.length };
    keep = Math.floor(keep * 0.8);
  }
}

// Never ends inside a surrogate pair, so the head stays valid UTF-16.
function safeHead(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}
