import type { FinishPart, FinishReason, ModelRequest, UsagePart } from '../model-provider.ts';
import { estimateRequestTokens, estimateTokens } from './estimate-tokens.ts';

/** Usage as a provider reported it; either side may be missing on lenient OpenAI-compatible servers. */
export type ReportedUsage = {
  inputTokens?: number;
  outputTokens?: number;
  /** Of the input, the tokens read from the provider's prompt cache. */
  cachedInputTokens?: number;
  /** Of the input, the tokens written to the provider's prompt cache (Anthropic bills them apart). */
  cacheWriteInputTokens?: number;
};

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
    ...cacheFigures(fields.reported, reportedInput),
  };
  return [usage, { type: 'finish', reason: fields.reason }];
}

// Kept only beside a reported input, and never above it: a server's cache figure is attacker-shaped input too.
function cacheFigures(
  reported: ReportedUsage | undefined,
  input: number | undefined,
): Pick<UsagePart, 'cachedInputTokens' | 'cacheWriteInputTokens'> {
  if (input === undefined || reported === undefined) return {};
  const cached = Math.min(reported.cachedInputTokens ?? 0, input);
  const written = Math.min(reported.cacheWriteInputTokens ?? 0, input - cached);
  return {
    ...(reported.cachedInputTokens === undefined ? {} : { cachedInputTokens: cached }),
    ...(reported.cacheWriteInputTokens === undefined ? {} : { cacheWriteInputTokens: written }),
  };
}
