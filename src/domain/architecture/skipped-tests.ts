// TAP and node's reporters (`# skipped 2`, `ℹ skipped 2`); pytest, jest, vitest (`2 skipped`); cargo (`2 ignored`).
const SUMMARY = /^\s*(?:#|ℹ)\s*skipped\s+(\d{1,9})\s*$|\b(\d{1,9})\s+(?:skipped|ignored)\b/gim;

/**
 * How many tests a passing check's output says were skipped, from the runner's summary (the last one
 * printed wins); null when it reports none. A skipped test checked nothing, so the line records it (ADR 0341).
 * Pure; reads only the output's last 64 KiB.
 */
export function skippedTests(output: string): number | null {
  let skipped: number | null = null;
  for (const match of output.slice(-65_536).matchAll(SUMMARY))
    skipped = Number(match[1] ?? match[2]);
  return skipped === null || skipped === 0 ? null : skipped;
}
