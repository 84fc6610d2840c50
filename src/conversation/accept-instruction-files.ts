import {
  LINE_EVENT_TYPES,
  LINE_EVENTS,
  LineInstructionsAcceptedPayloadSchema,
  LineMergedIntoMainPayloadSchema,
  type InstructionFileDigest,
} from '../domain/line/index.ts';
import { PERSON_ACTOR, type SessionEvent } from '../domain/conversation/index.ts';
import { findSession } from '../store/index.ts';
import type { ConversationDependencies, Refusal } from './conversation-dependencies.ts';
import { refusal } from './conversation-dependencies.ts';
import { SESSION_LANE } from './session-queue.ts';

export interface AcceptedInstructionFiles {
  ok: true;
  /** The paths accepted: from now on they govern the agents as any instruction file does. */
  accepted: string[];
  seq: number;
}

/** The session's merge into main and its dev-written instruction files not accepted yet; null without one. */
export function pendingInstructionFiles(
  events: readonly SessionEvent[],
): { mergeCommit: string; files: InstructionFileDigest[] } | null {
  const merge = events.find((event) => event.type === LINE_EVENT_TYPES.mergedIntoMain);
  if (merge === undefined) return null;
  const merged = LineMergedIntoMainPayloadSchema.parse(merge.payload);
  const accepted = new Set(
    events
      .filter((event) => event.type === LINE_EVENT_TYPES.instructionsAccepted)
      .flatMap(
        (event) => LineInstructionsAcceptedPayloadSchema.parse(event.payload).instruction_files,
      )
      .map((file) => `${file.path}\0${file.sha256}`),
  );
  const files = (merged.instruction_files ?? []).filter(
    (file) => !accepted.has(`${file.path}\0${file.sha256}`),
  );
  return { mergeCommit: merged.commit, files };
}

/**
 * The person accepts the instruction files the line's devs brought into main (ADR 0302): records
 * `line.instructions_accepted` with each file's path and text digest, after which those files govern the
 * agents. 409 when the session has no merge into main or nothing of it waits.
 */
export async function acceptInstructionFiles(
  dependencies: ConversationDependencies,
  sessionId: string,
  actor = PERSON_ACTOR,
): Promise<AcceptedInstructionFiles | Refusal> {
  const session = await findSession(dependencies.database, sessionId);
  if (session === null) return refusal(404, 'not_found', `No session with id ${sessionId}.`);
  return dependencies.queue.enqueue(sessionId, SESSION_LANE, async () => {
    const view = await dependencies.views.load(sessionId);
    const pending = pendingInstructionFiles(view.events);
    if (pending === null || pending.files.length === 0)
      return refusal(
        409,
        'nothing_to_accept',
        pending === null
          ? 'refused: the line of this session was not merged into main, so no instruction file waits'
          : 'refused: every instruction file of this merge into main was already accepted',
      );
    const appended = await dependencies.eventLog.append(sessionId, [
      LINE_EVENTS.lineInstructionsAccepted.create(actor, {
        v: 1,
        merge_commit: pending.mergeCommit,
        instruction_files: pending.files,
        actor,
      }),
    ]);
    if (!appended.success)
      throw new Error(`could not record line.instructions_accepted: ${appended.error.message}`);
    await dependencies.views.load(sessionId);
    return {
      ok: true,
      accepted: pending.files.map((file) => file.path),
      seq: appended.events[0]!.seq,
    };
  });
}
