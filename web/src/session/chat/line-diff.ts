/** One line of a diff: kept, removed from the old text, or added in the new one. */
export type DiffLine = { op: ' ' | '-' | '+'; text: string };

/** Above this many cells the middle of two texts is shown as removed then added, not matched line by line. */
const MAX_TABLE_CELLS = 250_000;

/**
 * The lines of `before` and `after` as a diff: the common start and end are kept, and the middle is matched by
 * a longest common subsequence while it is small enough (a file written whole can be large: past
 * `MAX_TABLE_CELLS`, the middle is all removed then all added). Keeping the ' ' and '-' lines gives `before`
 * back, keeping the ' ' and '+' lines gives `after` back.
 */
export function lineDiff(before: string, after: string): DiffLine[] {
  const old = splitLines(before);
  const now = splitLines(after);
  let start = 0;
  while (start < old.length && start < now.length && old[start] === now[start]) start += 1;
  let end = 0;
  while (
    end < old.length - start &&
    end < now.length - start &&
    old[old.length - 1 - end] === now[now.length - 1 - end]
  )
    end += 1;
  const kept = (lines: string[]) => lines.map((text) => ({ op: ' ' as const, text }));
  return [
    ...kept(old.slice(0, start)),
    ...middleDiff(old.slice(start, old.length - end), now.slice(start, now.length - end)),
    ...kept(old.slice(old.length - end)),
  ];
}

function middleDiff(old: string[], now: string[]): DiffLine[] {
  if ((old.length + 1) * (now.length + 1) > MAX_TABLE_CELLS)
    return [
      ...old.map((text) => ({ op: '-' as const, text })),
      ...now.map((text) => ({ op: '+' as const, text })),
    ];
  // common[i][j]: the longest common subsequence of old[i..] and now[j..], in one flat table.
  const width = now.length + 1;
  const common = new Uint32Array((old.length + 1) * width);
  for (let i = old.length - 1; i >= 0; i -= 1)
    for (let j = now.length - 1; j >= 0; j -= 1)
      common[i * width + j] =
        old[i] === now[j]
          ? common[(i + 1) * width + j + 1]! + 1
          : Math.max(common[(i + 1) * width + j]!, common[i * width + j + 1]!);
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < old.length || j < now.length) {
    if (i < old.length && j < now.length && old[i] === now[j]) {
      lines.push({ op: ' ', text: old[i]! });
      i += 1;
      j += 1;
    } else if (
      j >= now.length ||
      (i < old.length && common[(i + 1) * width + j]! >= common[i * width + j + 1]!)
    ) {
      lines.push({ op: '-', text: old[i]! });
      i += 1;
    } else {
      lines.push({ op: '+', text: now[j]! });
      j += 1;
    }
  }
  return lines;
}

/** A text's lines; the empty text has none, and a final newline does not make an empty last line. */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
