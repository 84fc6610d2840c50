import type { ModelMessage } from '../../../gateway/index.ts';
import type { ContextReport } from './create-context-manager.ts';

/**
 * `forja context --session … --agent …` as text: the figures of the next call, the compaction point, the
 * system prompt (its layers under their headers) and every message exactly as it would be sent.
 */
export function formatContextReport(
  report: ContextReport & {
    system: string;
    layers: ReadonlyArray<{
      name: string;
      strategy: string;
      budget: number;
      tokens: number;
      status: string;
    }> | null;
    tools: readonly string[];
  },
): string {
  const lines: string[] = [];
  const { window } = report;
  lines.push(
    `agent ${report.agent}: window ${window.tokens} tokens (${window.source}: ${window.from})`,
  );
  lines.push(
    `  system ${report.system_tokens} + tools ${report.tool_tokens} + answer ${report.max_output_tokens} + margin ${report.margin_tokens} → history budget ${report.history_budget} (compacts past ${report.compact_at_tokens})`,
  );
  lines.push(
    `  request ${report.request_tokens} tokens (estimated), history ${report.history_tokens} tokens in ${report.messages.length} messages`,
  );
  if (report.compaction === null) lines.push('compaction point: none (the whole history is sent)');
  else {
    const point = report.compaction;
    lines.push(
      `compaction point: through #${point.through_seq} (context.compacted #${point.seq}, ${point.tokens_before} → ${point.tokens_after} tokens)`,
    );
  }
  if (report.compaction_due) lines.push('compaction due: the next call summarises first');
  if (report.capped_messages > 0)
    lines.push(`long texts cut with a marker: ${report.capped_messages}`);
  if (report.left_out > 0)
    lines.push(`left out of this window (with a note): ${report.left_out} messages`);
  if (report.layers !== null) {
    lines.push('layers:');
    for (const layer of report.layers)
      lines.push(
        `  ${layer.name.padEnd(18)} ${layer.strategy.padEnd(16)} budget ${String(layer.budget).padStart(6)}  ${String(layer.tokens).padStart(6)} tokens  ${layer.status}`,
      );
  }
  lines.push(
    'placement: the layers go in the system prompt; a running lane keeps the prompt of its first call and sends the paragraphs changed since after the history (ADR 0430)',
  );
  lines.push(`tools: ${report.tools.length === 0 ? 'none' : report.tools.join(', ')}`);
  lines.push('', '=== system prompt ===', report.system, '', '=== messages as sent ===');
  for (const [index, message] of report.messages.entries())
    lines.push(`--- ${index + 1}. ${describe(message)}`, message.content);
  return `${lines.join('\n')}\n`;
}

function describe(message: ModelMessage): string {
  if (message.role === 'assistant')
    return message.toolCalls?.length
      ? `assistant (calls ${message.toolCalls.map((call) => `${call.name}(${call.rawArguments})`).join(', ')})`
      : 'assistant';
  if (message.role === 'tool')
    return `tool result for ${message.toolCallId}${message.isError ? ' (error)' : ''}`;
  return 'user';
}
