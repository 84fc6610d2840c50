import type { FinishPart, FinishReason, ModelRequest, UsagePart } from '../model-provider.ts';
import { estimateRequestTokens, estimateTokens } from './estimate-tokens.ts';

/** Usage as a provider reported it; either side may be missing on lenient OpenAI-compatible servers. */
export type ReportedUsage = { inputTokens?: number; outputTokens?: number };

/**
 * The two closing parts every stream ends with. Metering needs a usage figure for every call, so when
 * the provider reported none (or only half), the missing side is estimated and the part says so.
 */
export function finishStream(fields: {
  request: ModelRequest;
  reported: ReportedUsage | undefined;
  outputText: string;
  reason: FinishReason;
}): [UsagePart, FinishPart] {
  const reportedInput = fields.reported?.inputTokens;
  const reportedOutput = fields.reported?.outputTokens;
  const usage: UsagePart = {
    type: 'usage',
    inputTokens: reportedInput ?? estimateRequestTokens(fields.request),
    outputTokens: reportedOutput ?? estimateTokens(fields.outputText),
    estimated: reportedInput === undefined || reportedOutput === undefined,
  };
  return [usage, { type: 'finish', reason: fields.reason }];
}
