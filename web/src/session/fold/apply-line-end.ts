import type { StoredEvent } from '../../api/types.ts';
import { fields, optionalText } from './read.ts';

/** The line's end as the log has it: `line.completed` (dev ready), then `line.merged_into_main` (on main). */
export type LineEnd = {
  seq: number;
  devCommit: string;
  merged: { seq: number; commit: string } | null;
} | null;

/** Folds `line.completed` (the last one counts) and `line.merged_into_main`; other events leave it as it is. */
export function applyLineEnd(lineEnd: LineEnd, event: StoredEvent): LineEnd {
  const commit = optionalText(fields(event.payload)['commit']);
  if (commit === null) return lineEnd;
  if (event.type === 'line.completed')
    return { seq: event.seq, devCommit: commit, merged: lineEnd?.merged ?? null };
  if (event.type === 'line.merged_into_main' && lineEnd !== null)
    return { ...lineEnd, merged: { seq: event.seq, commit } };
  return lineEnd;
}
