import type { LayerOutcome } from './assembly-report.ts';
import { largestFitting } from './largest-fitting.ts';
import { TRUNCATION_SUFFIX } from './prompt-layout.ts';
import { countJoined, type Tokenizer } from './tokenizer.ts';

// A cut between a high and a low surrogate would split one character in two; move it before the pair.
function codePointBoundaryAtOrBefore(text: string, index: number): number {
  if (index <= 0 || index >= text.length) return index;
  const before = text.charCodeAt(index - 1);
  const after = text.charCodeAt(index);
  const splitsPair = before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
  return splitsPair ? index - 1 : index;
}

/**
 * `truncate_tail`: the whole block if it fits; otherwise the longest prefix that fits the budget together
 * with the header and the marker `[… truncado …]`, cut only between code points, so the text stays valid
 * UTF-8. When not even one character fits beside the marker, the layer is dropped rather than spending
 * tokens on a header and a marker alone.
 */
export function truncateTail(header: string, text: string, budget: number, tokenizer: Tokenizer): LayerOutcome {
  const whole = countJoined(tokenizer, [header, text]);
  if (whole.tokens <= budget) {
    return { status: 'kept', content: header + text, tokens: whole.tokens, estimated: whole.estimated };
  }
  const fitsWithMarker = (length: number): boolean => {
    const prefix = text.slice(0, codePointBoundaryAtOrBefore(text, length));
    return countJoined(tokenizer, [header, prefix, TRUNCATION_SUFFIX]).tokens <= budget;
  };
  // A proportional guess: the share of the text that the budget left after header and marker would hold
  // if tokens were spread evenly. It only steers the search; every length kept is checked by counting.
  const fixedTokens = countJoined(tokenizer, [header, TRUNCATION_SUFFIX]).tokens;
  const hint = Math.floor((text.length * Math.max(0, budget - fixedTokens)) / Math.max(1, whole.tokens));
  // The whole text did not fit, so neither will it with the marker: only strict prefixes are candidates.
  const longest = largestFitting(Math.max(0, text.length - 1), fitsWithMarker, hint);
  const keptLength = codePointBoundaryAtOrBefore(text, longest);
  if (keptLength <= 0) {
    const nothing = tokenizer.count('');
    return { status: 'dropped', content: '', tokens: nothing.tokens, estimated: nothing.estimated };
  }
  const content = header + text.slice(0, keptLength) + TRUNCATION_SUFFIX;
  const kept = countJoined(tokenizer, [header, text.slice(0, keptLength), TRUNCATION_SUFFIX]);
  return { status: 'truncated', content, tokens: kept.tokens, estimated: kept.estimated };
}
