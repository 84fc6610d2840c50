import type { FoldEvent } from './fold-event.ts';

/** The line's end as the log has it: `line.completed` (dev ready), then `line.merged_into_main` (on main). */
export type LineEnd = {
  seq: number;
  devCommit: string;
  merged: { seq: number; commit: string } | null;
} | null;

/** Folds `line.completed` (the last one counts) and `line.merged_into_main`; other events leave it as it is. */
export function applyLineEnd(lineEnd: LineEnd, event: FoldEvent): LineEnd {
  if (event.type === 'line.completed')
    return { seq: event.seq, devCommit: event.payload.commit, merged: lineEnd?.merged ?? null };
  if (event.type === 'line.merged_into_main' && lineEnd !== null)
    return { ...lineEnd, merged: { seq: event.seq, commit: event.payload.commit } };
  return lineEnd;
}
