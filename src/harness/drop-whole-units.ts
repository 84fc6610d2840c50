import type { LayerOutcome, PromptUnit, UnitReport } from './assembly-report.ts';
import { largestFitting } from './largest-fitting.ts';
import { TRUNCATION_SUFFIX, UNIT_SEPARATOR, unitHeader } from './prompt-layout.ts';
import { countJoined, type Tokenizer } from './tokenizer.ts';
import { graphemeBoundaryAtOrBefore } from './truncate-tail.ts';

/** How dropWholeUnits treats the unit at the boundary (the last one that does not fit). */
export interface DropOptions {
  /**
   * Keep the head of the boundary unit, cut by `truncate_tail` (grapheme-safe, ending in the marker), in
   * what the kept units leave of the budget, instead of dropping it whole. The instruction layer does this
   * so the least specific file still kept (often the root) is not lost for a few tokens; business rules
   * are never split.
   */
  readonly truncateBoundary?: boolean;
}

// The parts of a layer that keeps the last `keptCount` units, for counting without concatenating.
function partsOfLastUnits(
  header: string,
  rendered: readonly (readonly [string, string])[],
  keptCount: number,
) {
  if (keptCount === 0) return [];
  const parts: string[] = [header];
  for (let index = rendered.length - keptCount; index < rendered.length; index++) {
    const [unitHeaderLine, text] = rendered[index] ?? ['', ''];
    if (parts.length > 1) parts.push(UNIT_SEPARATOR);
    parts.push(unitHeaderLine, text);
  }
  return parts;
}

// The longest head of `text` (a grapheme boundary) that fits before `tail`; 0 when nothing does.
function boundaryHead(
  header: string,
  unitHeaderLine: string,
  text: string,
  tail: readonly string[],
  budget: number,
  tokenizer: Tokenizer,
) {
  const partsWith = (length: number) => {
    const head = [
      header,
      unitHeaderLine,
      text.slice(0, graphemeBoundaryAtOrBefore(text, length)),
      TRUNCATION_SUFFIX,
    ];
    return tail.length === 0 ? head : [...head, UNIT_SEPARATOR, ...tail.slice(1)];
  };
  if (countJoined(tokenizer, partsWith(0)).tokens > budget) return 0;
  const fixed = countJoined(tokenizer, partsWith(0)).tokens;
  const hint = Math.floor(
    (text.length * Math.max(0, budget - fixed)) /
      Math.max(1, countJoined(tokenizer, [text]).tokens),
  );
  const longest = largestFitting(
    Math.max(0, text.length - 1),
    (length) => countJoined(tokenizer, partsWith(length)).tokens <= budget,
    hint,
  );
  return graphemeBoundaryAtOrBefore(text, longest);
}

// How many units from the tail fit if their own counts simply added up: a guess that steers the search
// (tokens do not quite add up across a join), never a decision.
function tailThatAddsUp(unitTokens: readonly number[], budget: number): number {
  let total = 0;
  let count = 0;
  for (let index = unitTokens.length - 1; index >= 0; index--) {
    total += unitTokens[index] ?? 0;
    if (total > budget) break;
    count++;
  }
  return count;
}

/**
 * `drop_whole_units`: units arrive in drop order (lowest priority or oldest first). Whole units are dropped
 * from the head until the rest, with the layer header, fits the budget, so what is kept is always the
 * longest fitting tail of the list. A unit is never split: one larger than the budget is dropped whole,
 * with every unit before it. Each unit is reported with its own tokens (its header included). With
 * `truncateBoundary`, the unit just before the kept tail keeps its head when some of it fits (see DropOptions).
 */
export function dropWholeUnits(
  header: string,
  units: readonly PromptUnit[],
  budget: number,
  tokenizer: Tokenizer,
  options: DropOptions = {},
): LayerOutcome {
  const rendered = units.map((unit) => [unitHeader(unit.id), unit.text] as const);
  const unitTokens = rendered.map((parts) => countJoined(tokenizer, parts).tokens);
  const fits = (keptCount: number) =>
    countJoined(tokenizer, partsOfLastUnits(header, rendered, keptCount)).tokens <= budget;
  const keptCount = largestFitting(units.length, fits, tailThatAddsUp(unitTokens, budget));
  const firstKept = units.length - keptCount;
  let parts = partsOfLastUnits(header, rendered, keptCount);
  let cutIndex = -1;
  if (options.truncateBoundary === true && firstKept > 0) {
    const [unitHeaderLine, text] = rendered[firstKept - 1] ?? ['', ''];
    const headLength = boundaryHead(header, unitHeaderLine, text, parts, budget, tokenizer);
    if (headLength > 0) {
      cutIndex = firstKept - 1;
      const head = [header, unitHeaderLine, text.slice(0, headLength), TRUNCATION_SUFFIX];
      parts = parts.length === 0 ? head : [...head, UNIT_SEPARATOR, ...parts.slice(1)];
    }
  }
  const reports: UnitReport[] = units.map((unit, index) => ({
    id: unit.id,
    tokens: unitTokens[index] ?? 0,
    kept: index >= firstKept || index === cutIndex,
    ...(index === cutIndex ? { truncated: true as const } : {}),
  }));
  const kept = countJoined(tokenizer, parts);
  const keptAny = keptCount > 0 || cutIndex !== -1;
  const status = keptCount === units.length ? 'kept' : keptAny ? 'truncated' : 'dropped';
  return {
    status,
    content: parts.join(''),
    tokens: kept.tokens,
    estimated: kept.estimated,
    units: reports,
  };
}
