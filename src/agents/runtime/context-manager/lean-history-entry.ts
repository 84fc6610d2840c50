import type { ChatHistoryEntry, RecordedToolCall } from '../../../domain/conversation/index.ts';

/** A tool argument or result longer than this (in characters) is sent as a reference once leaned. */
export const LEAN_MIN_CHARS = 400;
/** How much of a leaned tool result stays, for orientation (an exit code, a test count, a file's first line). */
export const LEAN_RESULT_HEAD_CHARS = 160;

/**
 * The entry as a lean compaction sends it: the payloads a later call does not need whole — the contents a
 * `write_file` wrote, a long read or command output — become one-line references to the event that keeps
 * them (in the conversation's language, like the other markers the model reads). What the model decided
 * and said stays: its text, the calls' other arguments, the start of each result. Pure; an entry with
 * nothing long comes back as it is (the same object), so a request that did not change stays byte-identical.
 */
export function leanHistoryEntry(entry: ChatHistoryEntry): ChatHistoryEntry {
  if (entry.role === 'user') return entry;
  if (entry.role === 'tool') {
    if (entry.content.length <= LEAN_MIN_CHARS) return entry;
    const head = entry.content.slice(0, LEAN_RESULT_HEAD_CHARS);
    const reference = `[… resultado de ${entry.tool}: ${entry.content.length} caracteres, guardado no evento #${entry.seq}; chame a ferramenta de novo para vê-lo como está agora]`;
    return { ...entry, content: `${head}\n${reference}` };
  }
  const calls = entry.tool_calls;
  if (calls === undefined || !calls.some(hasLongArgument)) return entry;
  return { ...entry, tool_calls: calls.map((call) => leanCall(call, entry.seq)) };
}

function leanCall(call: RecordedToolCall, seq: number): RecordedToolCall {
  if (!hasLongArgument(call) || !isRecord(call.arguments)) return call;
  const path = typeof call.arguments.path === 'string' ? call.arguments.path : null;
  const leaned = Object.fromEntries(
    Object.entries(call.arguments).map(([key, value]) => [
      key,
      typeof value === 'string' && value.length > LEAN_MIN_CHARS
        ? argumentReference(value.length, seq, path)
        : value,
    ]),
  );
  return { ...call, arguments: leaned };
}

function argumentReference(length: number, seq: number, path: string | null): string {
  const see = path === null ? '' : `; read_file ${path} mostra o arquivo como está agora`;
  return `[${length} caracteres, guardados no evento #${seq}${see}]`;
}

const hasLongArgument = (call: RecordedToolCall): boolean =>
  isRecord(call.arguments) &&
  Object.values(call.arguments).some(
    (value) => typeof value === 'string' && value.length > LEAN_MIN_CHARS,
  );

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
