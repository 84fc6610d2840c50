import type { FoldEvent } from './fold-event.ts';

/** The dev-written instruction files of the session's merge into main and the ones the person accepted. */
export type InstructionsDraft = {
  seq: number;
  files: Array<{ path: string; key: string }>;
  accepted: Set<string>;
} | null;

/** What waits: the instruction files a merge into main brought, not accepted yet (ADR 0302). */
export type PendingInstructions = { seq: number; paths: string[] };

const keysOf = (files: ReadonlyArray<{ path: string; sha256: string }> = []) =>
  files.map((file) => ({ path: file.path, key: `${file.path}\0${file.sha256}` }));

/** `line.merged_into_main`'s `instruction_files` wait until `line.instructions_accepted` names them. */
export function applyInstructions(draft: InstructionsDraft, event: FoldEvent): InstructionsDraft {
  if (event.type === 'line.merged_into_main')
    return { seq: event.seq, files: keysOf(event.payload.instruction_files), accepted: new Set() };
  if (event.type === 'line.instructions_accepted' && draft !== null)
    for (const file of keysOf(event.payload.instruction_files)) draft.accepted.add(file.key);
  return draft;
}

/** The files still waiting, or null when none does. */
export function pendingInstructions(draft: InstructionsDraft): PendingInstructions | null {
  const paths =
    draft?.files.filter((file) => !draft.accepted.has(file.key)).map((file) => file.path) ?? [];
  return draft === null || paths.length === 0 ? null : { seq: draft.seq, paths };
}
