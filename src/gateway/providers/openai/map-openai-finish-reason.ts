import type { FinishReason } from '../model-provider.ts';

/**
 * OpenAI's `finish_reason` in neutral terms. Some compatible servers (older Ollama among them) report
 * `stop` on a turn that made tool calls; the turn is a tool-call turn whatever they say.
 */
export function mapOpenAiFinishReason(
  reason: string | undefined,
  madeToolCalls: boolean,
): FinishReason {
  if (madeToolCalls && (reason === undefined || reason === 'stop')) return 'tool_calls';
  switch (reason) {
    case 'stop':
    case undefined:
      return 'stop';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content_filter';
    case 'error':
      return 'error';
    default:
      return 'other';
  }
}
