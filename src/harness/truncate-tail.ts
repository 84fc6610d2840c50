import type { LayerOutcome } from './assembly-report.ts';
import { largestFitting } from './largest-fitting.ts';
import { TRUNCATION_SUFFIX } from './prompt-layout.ts';
import { countJoined, type Tokenizer } from './tokenizer.ts';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

// How far back a cut looks for the start of the grapheme it lands in: longer than any cluster met in
// practice (a family emoji is 11 code units), short enough that a probe costs microseconds on a megabyte.
const GRAPHEME_LOOKBACK = 64;

function isRegionalIndicatorAt(text: string, index: number): boolean {
  return (
    text.charCodeAt(index) === 0xd83c &&
    text.charCodeAt(index + 1) >= 0xdde6 &&
    text.charCodeAt(index + 1) <= 0xddff
  );
}

/**
 * The largest grapheme boundary at or before `index` (Intl.Segmenter), so a cut never parts a letter from
 * its accent ("café" in NFD), a flag's two halves (🇧🇷) or the pieces of an emoji sequence. Only a window
 * before the cut is segmented; it starts after a run of regional indicators' beginning, because their
 * pairing counts from there.
 */
export function graphemeBoundaryAtOrBefore(text: string, index: number): number {
  if (index <= 0 || index >= text.length) return Math.max(0, Math.min(index, text.length));
  let start = Math.max(0, index - GRAPHEME_LOOKBACK);
  while (start >= 2 && isRegionalIndicatorAt(text, start - 2)) start -= 2;
  const window = text.slice(start, Math.min(text.length, index + GRAPHEME_LOOKBACK));
  let boundary = start;
  for (const segment of graphemes.segment(window)) {
    const at = start + segment.index;
    if (at > index) break;
    boundary = at;
  }
  return boundary;
}

/**
 * `truncate_tail`: the whole block if it fits; otherwise the longest prefix that fits the budget together
 * with the header and the marker `[… truncado …]`, cut only between graphemes (so between code points too:
 * the text stays valid UTF-8, and no accent or flag is split). When not even one character fits beside the marker, the layer is dropped rather than spending
 * tokens on a header and a marker alone.
 */
export function truncateTail(
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
  const fitsWithMarker = (length: number): boolean => {
    const prefix = text.slice(0, graphemeBoundaryAtOrBefore(text, length));
    return countJoined(tokenizer, [header, prefix, TRUNCATION_SUFFIX]).tokens <= budget;
  };
  // A proportional guess: the share of the text that the budget left after header and marker would hold
  // if tokens were spread evenly. It only steers the search; every length kept is checked by counting.
  const fixedTokens = countJoined(tokenizer, [header, TRUNCATION_SUFFIX]).tokens;
  const hint = Math.floor(
    (text.length * Math.max(0, budget - fixedTokens)) / Math.max(1, whole.tokens),
  );
  // The whole text did not fit, so neither will it with the marker: only strict prefixes are candidates.
  const longest = largestFitting(Math.max(0, text.length - 1), fitsWithMarker, hint);
  const keptLength = graphemeBoundaryAtOrBefore(text, longest);
  if (keptLength <= 0) {
    const nothing = tokenizer.count('');
    return { status: 'dropped', content: '', tokens: nothing.tokens, estimated: nothing.estimated };
  }
  const content = header + text.slice(0, keptLength) + TRUNCATION_SUFFIX;
  const kept = countJoined(tokenizer, [header, text.slice(0, keptLength), TRUNCATION_SUFFIX]);
  return { status: 'truncated', content, tokens: kept.tokens, estimated: kept.estimated };
}
