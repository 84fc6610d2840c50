import {
  LINE_EVENT_TYPES,
  LineInstructionsAcceptedPayloadSchema,
  LineMergedIntoMainPayloadSchema,
  type InstructionFileDigest,
} from '../../domain/line/index.ts';
import { readProjectEvents } from '../artifacts/project-artifact-events.ts';
import type { Queryable } from '../database.ts';

const keyOf = (file: InstructionFileDigest) => `${file.path}\0${file.sha256}`;

/**
 * The instruction files a line's devs brought into the project's `main` (each `line.merged_into_main`'s
 * `instruction_files`) that the person has not accepted (`line.instructions_accepted`) — in any session of
 * the project: a file with exactly this path and text governs no agent (ADR 0302). Accepted text stays
 * accepted; a later merge that changes it again brings a new text to accept.
 */
export async function readQuarantinedInstructions(
  database: Queryable,
  projectId: string,
): Promise<InstructionFileDigest[]> {
  const events = await readProjectEvents(database, projectId, [
    LINE_EVENT_TYPES.mergedIntoMain,
    LINE_EVENT_TYPES.instructionsAccepted,
  ]);
  const pending = new Map<string, InstructionFileDigest>();
  const accepted = new Set<string>();
  for (const event of events) {
    const schema =
      event.type === LINE_EVENT_TYPES.mergedIntoMain
        ? LineMergedIntoMainPayloadSchema
        : LineInstructionsAcceptedPayloadSchema;
    const parsed = schema.safeParse(event.payload);
    if (!parsed.success) continue;
    for (const file of parsed.data.instruction_files ?? [])
      if (event.type === LINE_EVENT_TYPES.mergedIntoMain) pending.set(keyOf(file), file);
      else accepted.add(keyOf(file));
  }
  return [...pending.entries()].filter(([key]) => !accepted.has(key)).map(([, file]) => file);
}
