/** How much of a failing check's output the model is shown. */
export interface ExcerptLimits {
  /** The output's last lines, always shown (runners print their totals there). */
  tailLines: number;
  /** At most this many lines of failing tests before the tail. */
  failureLines: number;
  /** At most this many lines of one failing test (its name, then its diagnostics). */
  blockLines: number;
}

export const CHECK_EXCERPT_LIMITS: ExcerptLimits = {
  tailLines: 40,
  failureLines: 60,
  blockLines: 16,
};

// A failing test as TAP (`not ok 3 - name`, node --test's default without a terminal) or node's spec
// reporter (`✖ name (1.2ms)`) prints it; its diagnostics are the lines indented deeper below it.
const FAILED_TEST = /^(\s*)(?:not ok \d+\b|✖ (?!failing tests:))/;
// Other runners: the first line that names a failure (pytest, jest, vitest, go test, mocha, cargo test, …).
const FAILURE_LINE =
  /\b(?:FAIL|FAILED|FAILURES|ERROR|Error|AssertionError|AssertError|panicked|panic:)\b|^\s*E {2,}|[✗×]/;
const LINES_BEFORE_FAILURE = 3;

/**
 * What a failing check's output shows the model: the failing tests (each TAP `not ok` or spec `✖` block
 * with its diagnostics, leaf failures before the suites that only count them; for other runners, the lines
 * around the first failure), then the output's tail. Every line shown is a line of the output, in order;
 * a gap is marked `[… N lines …]`. Pure.
 */
export function checkOutputExcerpt(
  output: string,
  limits: ExcerptLimits = CHECK_EXCERPT_LIMITS,
): string {
  const lines = output.trimEnd().split('\n');
  const tailStart = Math.max(0, lines.length - limits.tailLines);
  const shown = new Set<number>();
  for (const [start, end] of failureRanges(lines, limits)) {
    for (let index = start; index < end && index < tailStart; index += 1) {
      if (shown.size >= limits.failureLines) break;
      shown.add(index);
    }
  }
  for (let index = tailStart; index < lines.length; index += 1) shown.add(index);
  const parts: string[] = [];
  let previous = -1;
  for (const index of [...shown].sort((a, b) => a - b)) {
    if (index > previous + 1) parts.push(`[… ${index - previous - 1} lines …]`);
    parts.push(lines[index]!);
    previous = index;
  }
  return parts.join('\n');
}

/** The failing tests' line ranges `[start, end)`, leaf failures first, in output order. */
function failureRanges(lines: readonly string[], limits: ExcerptLimits): Array<[number, number]> {
  const blocks: Array<{ range: [number, number]; countsOnly: boolean }> = [];
  lines.forEach((line, index) => {
    const match = FAILED_TEST.exec(line);
    if (match === null) return;
    const indent = match[1]!.length;
    let end = index + 1;
    while (end < lines.length && (lines[end]!.trim() === '' || indentOf(lines[end]!) > indent))
      end += 1;
    const body = lines.slice(index, end).join('\n');
    blocks.push({
      range: [index, Math.min(end, index + limits.blockLines)],
      countsOnly: /subtestsFailed|\d+ subtests? failed/.test(body) || end === index + 1,
    });
  });
  if (blocks.length > 0)
    return [
      ...blocks.filter((block) => !block.countsOnly),
      ...blocks.filter((block) => block.countsOnly),
    ].map((block) => block.range);
  const first = lines.findIndex((line) => FAILURE_LINE.test(line));
  if (first === -1) return [];
  return [[Math.max(0, first - LINES_BEFORE_FAILURE), first + limits.blockLines]];
}

const indentOf = (line: string) => line.length - line.trimStart().length;
