/** Reciprocal-rank fusion's constant (Cormack et al., 2009): damps the weight of the very first ranks. */
export const RRF_CONSTANT = 60;

/**
 * Merges ranked lists (best first) by reciprocal-rank fusion: an item's score is the sum over the lists that
 * hold it of 1 / (RRF_CONSTANT + rank), ranks from 1. Scores of different searches (cosine similarity,
 * `ts_rank`) are not comparable; ranks are. Ties go to the smaller key, so the order is deterministic.
 * Returns at most `limit` items with their fused score.
 */
export function fuseRankedLists<Item>(
  lists: ReadonlyArray<readonly Item[]>,
  keyOf: (item: Item) => string,
  limit: number,
): Array<{ item: Item; score: number }> {
  const fused = new Map<string, { item: Item; score: number }>();
  for (const list of lists) {
    const seen = new Set<string>();
    list.forEach((item, index) => {
      const key = keyOf(item);
      if (seen.has(key)) return;
      seen.add(key);
      const contribution = 1 / (RRF_CONSTANT + index + 1);
      const entry = fused.get(key);
      if (entry) entry.score += contribution;
      else fused.set(key, { item, score: contribution });
    });
  }
  return [...fused.entries()]
    .sort(
      ([leftKey, left], [rightKey, right]) =>
        right.score - left.score || (leftKey < rightKey ? -1 : leftKey > rightKey ? 1 : 0),
    )
    .slice(0, Math.max(0, limit))
    .map(([, entry]) => entry);
}
