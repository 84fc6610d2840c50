/**
 * The index of the first item whose `seq` is greater than `seq`, items sorted by seq (a history, a log):
 * a binary search, so reading the tail of a 100,000-entry history costs the tail, not the whole.
 */
export function firstAfter(items: ReadonlyArray<{ readonly seq: number }>, seq: number): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (items[middle]!.seq <= seq) low = middle + 1;
    else high = middle;
  }
  return low;
}
