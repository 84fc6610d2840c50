import type { RenderedEntry } from './render-history-entry.ts';

/**
 * Pure rules of what part of a history is sent. Entries are one agent's history after its compaction point,
 * oldest first. A cut only ever falls before a user or assistant entry, never before a tool result, so no
 * result is sent without the call it answers.
 */

/** True when a history may start at `index` (a tool result without its call would be refused by a provider). */
export function isCleanStart(rendered: readonly RenderedEntry[], index: number): boolean {
  return index >= rendered.length || rendered[index]!.entry.role !== 'tool';
}

export function sumTokens(rendered: readonly RenderedEntry[], from = 0): number {
  let total = 0;
  for (let index = from; index < rendered.length; index += 1) total += rendered[index]!.tokens;
  return total;
}

/**
 * Where a compaction cuts: the entries before the returned index are summarised, those from it on are kept.
 * It keeps the longest recent run (from a clean start) costing at most `keepTokens`, and at least the last
 * clean-started run when even that costs more. 0 means there is nothing older to summarise.
 */
export function compactionSplit(rendered: readonly RenderedEntry[], keepTokens: number): number {
  let suffix = 0;
  let split = rendered.length;
  let lastClean = -1;
  for (let index = rendered.length - 1; index >= 0; index -= 1) {
    suffix += rendered[index]!.tokens;
    if (!isCleanStart(rendered, index)) continue;
    if (lastClean === -1) lastClean = index;
    if (suffix > keepTokens) break;
    split = index;
  }
  if (split === rendered.length) split = Math.max(0, lastClean);
  return split;
}

/**
 * The deterministic window: the most recent entries (from a clean start) whose cost fits `budgetTokens`.
 * Returns where the window starts; everything before it is left out, and the caller says so in a note.
 */
export function windowStart(rendered: readonly RenderedEntry[], budgetTokens: number): number {
  let used = 0;
  let start = rendered.length;
  for (let index = rendered.length - 1; index >= 0; index -= 1) {
    used += rendered[index]!.tokens;
    if (used > budgetTokens) break;
    if (isCleanStart(rendered, index)) start = index;
  }
  return start;
}
