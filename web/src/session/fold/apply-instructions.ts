import type { StoredEvent } from '../../api/types.ts';
import { fields, list, text } from './read.ts';

/** The dev-written instruction files of the session's merge into main and the ones the person accepted. */
export type InstructionsDraft = {
  seq: number;
  files: Array<{ path: string; key: string }>;
  accepted: Set<string>;
} | null;

/** What waits: the instruction files a merge into main brought, not accepted yet (ADR 0302). */
export type PendingInstructions = { seq: number; paths: string[] };

const keysOf = (value: unknown) =>
  list(value).map((item) => {
    const file = fields(item);
    return { path: text(file['path']), key: `${text(file['path'])}\0${text(file['sha256'])}` };
  });

/** `line.merged_into_main`'s `instruction_files` wait until `line.instructions_accepted` names them. */
export function applyInstructions(draft: InstructionsDraft, event: StoredEvent): InstructionsDraft {
  const payload = fields(event.payload);
  if (event.type === 'line.merged_into_main')
    return { seq: event.seq, files: keysOf(payload['instruction_files']), accepted: new Set() };
  if (event.type === 'line.instructions_accepted' && draft !== null)
    for (const file of keysOf(payload['instruction_files'])) draft.accepted.add(file.key);
  return draft;
}

/** The files still waiting, or null when none does. */
export function pendingInstructions(draft: InstructionsDraft): PendingInstructions | null {
  const paths =
    draft?.files.filter((file) => !draft.accepted.has(file.key)).map((file) => file.path) ?? [];
  return draft === null || paths.length === 0 ? null : { seq: draft.seq, paths };
}
