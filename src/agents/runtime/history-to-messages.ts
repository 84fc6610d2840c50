import { isInLane, type ChatHistoryEntry } from '../../domain/conversation/index.ts';
import type { ModelMessage } from '../../gateway/index.ts';

/**
 * The conversation as `agent`'s model sees it: its lane — what the person said to it (or, in logs from before
 * lanes, to everyone), what this agent said (with its tool calls) and the results of those calls. The person's
 * messages carry their seq as `[#seq]`. Other lanes are not part of this agent's history (a message to
 * Criativo must not land between a dev's tool call and its result); what an agent needs of the others reaches
 * it through the prompt's layers (brief, rules, contracts).
 */
export function historyToMessages(
  history: readonly ChatHistoryEntry[],
  agent: string,
): ModelMessage[] {
  const messages: ModelMessage[] = [];
  for (const entry of history) {
    if (!isInLane(entry, agent)) continue;
    // The seq lets the model cite what the person said (emit_artifact's `origin`).
    if (entry.role === 'user')
      messages.push({ role: 'user', content: `[#${entry.seq}] ${entry.content}` });
    else if (entry.role === 'assistant') {
      const toolCalls = (entry.tool_calls ?? []).map((call) => ({
        id: call.id,
        name: call.name,
        rawArguments: JSON.stringify(call.arguments ?? {}),
      }));
      messages.push(
        toolCalls.length > 0
          ? { role: 'assistant', content: entry.content, toolCalls }
          : { role: 'assistant', content: entry.content },
      );
    } else {
      messages.push({
        role: 'tool',
        toolCallId: entry.tool_call_id,
        content: entry.content,
        ...(entry.ok ? {} : { isError: true }),
      });
    }
  }
  return messages;
}
