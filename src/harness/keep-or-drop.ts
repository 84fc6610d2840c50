import type { LayerOutcome } from './assembly-report.ts';
import { countJoined, type Tokenizer } from './tokenizer.ts';

/**
 * `keep_or_drop`: the whole layer (header and text) if it fits the budget, otherwise nothing.
 * Half an identity is useless, the record says, so it is never cut.
 */
export function keepOrDrop(
  header: string,
  text: string,
  budget: number,
  tokenizer: Tokenizer,
): LayerOutcome {
  const whole = countJoined(tokenizer, [header, text]);
  if (whole.tokens <= budget) {
    return {
      status: 'kept',
      content: header + text,
      tokens: whole.tokens,
      estimated: whole.estimated,
    };
  }
  const nothing = tokenizer.count('');
  return { status: 'dropped', content: '', tokens: nothing.tokens, estimated: nothing.estimated };
}
