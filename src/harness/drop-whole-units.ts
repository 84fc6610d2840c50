import type { LayerOutcome, PromptUnit, UnitReport } from './assembly-report.ts';
import { largestFitting } from './largest-fitting.ts';
import { UNIT_SEPARATOR, unitHeader } from './prompt-layout.ts';
import { countJoined, type Tokenizer } from './tokenizer.ts';

// The parts of a layer that keeps the last `keptCount` units, for counting without concatenating.
function partsOfLastUnits(header: string, rendered: readonly (readonly [string, string])[], keptCount: number) {
  if (keptCount === 0) return [];
  const parts: string[] = [header];
  for (let index = rendered.length - keptCount; index < rendered.length; index++) {
    const [unitHeaderLine, text] = rendered[index] ?? ['', ''];
    if (parts.length > 1) parts.push(UNIT_SEPARATOR);
    parts.push(unitHeaderLine, text);
  }
  return parts;
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
 * with every unit before it. Each unit is reported with its own tokens (its header included).
 */
export function dropWholeUnits(
  header: string,
  units: readonly PromptUnit[],
  budget: number,
  tokenizer: Tokenizer,
): LayerOutcome {
  const rendered = units.map((unit) => [unitHeader(unit.id), unit.text] as const);
  const unitTokens = rendered.map((parts) => countJoined(tokenizer, parts).tokens);
  const fits = (keptCount: number) =>
    countJoined(tokenizer, partsOfLastUnits(header, rendered, keptCount)).tokens <= budget;
  const keptCount = largestFitting(units.length, fits, tailThatAddsUp(unitTokens, budget));
  const firstKept = units.length - keptCount;
  const reports: UnitReport[] = units.map((unit, index) => ({
    id: unit.id,
    tokens: unitTokens[index] ?? 0,
    kept: index >= firstKept,
  }));
  const parts = partsOfLastUnits(header, rendered, keptCount);
  const kept = countJoined(tokenizer, parts);
  const status = keptCount === units.length ? 'kept' : keptCount === 0 ? 'dropped' : 'truncated';
  return { status, content: parts.join(''), tokens: kept.tokens, estimated: kept.estimated, units: reports };
}
