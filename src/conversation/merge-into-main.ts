import { instructionDigest, mergeIntoMainDecision } from '../agents/index.ts';
import { DEFAULT_MAX_INSTRUCTION_FILE_BYTES } from '../harness/index.ts';
import { LINE_EVENTS, LineMergedIntoMainPayloadSchema } from '../domain/line/index.ts';
import { PERSON_ACTOR } from '../domain/conversation/index.ts';
import { findSession } from '../store/index.ts';
import type { ConversationDependencies, Refusal } from './conversation-dependencies.ts';
import { refusal } from './conversation-dependencies.ts';
import { SESSION_LANE } from './session-queue.ts';

export interface MergedIntoMain {
  ok: true;
  /** The merge commit on main. */
  commit: string;
  /** The dev commit it merged: line.completed's. */
  dev_commit: string;
  /** The instruction files the line's devs added or changed: they wait for the person (ADR 0302). */
  instruction_files: string[];
  seq: number;
}

/**
 * The person's "Merge into main", the line's last step: allowed once, and only after `line.completed`. Merges
 * the `dev` commit the line completed on into `main` with a real merge commit (under the project's git lock)
 * and records `line.merged_into_main {commit, dev_commit, actor, instruction_files}` — the instruction files
 * the line's devs added or changed, which govern no agent until the person accepts them (ADR 0302). In the session lane, so it never races
 * the line's own merges or a second press. A conflict with main (docs/ changed on both) is a 409 naming the
 * paths, main untouched and nothing recorded.
 */
export async function mergeLineIntoMain(
  dependencies: ConversationDependencies,
  sessionId: string,
  actor = PERSON_ACTOR,
): Promise<MergedIntoMain | Refusal> {
  const session = await findSession(dependencies.database, sessionId);
  if (session === null) return refusal(404, 'not_found', `No session with id ${sessionId}.`);
  const line = dependencies.line;
  if (line === undefined)
    return refusal(503, 'line_unavailable', 'This process merges no line (no workspaces).');
  return dependencies.queue.enqueue(sessionId, SESSION_LANE, async () => {
    const view = await dependencies.views.load(sessionId);
    const decision = mergeIntoMainDecision(view.events);
    if (!decision.ok) return refusal(409, decision.code, decision.message);
    // Before merging, only to refuse a line with more instruction files than a person can review.
    const ahead = await line.workspaces.instructionFilesOf(
      session.project_id,
      decision.devCommit,
      DEFAULT_MAX_INSTRUCTION_FILE_BYTES,
    );
    if (!ahead.ok) return refusal(409, 'merge_refused', `${ahead.reason}; nothing was merged`);
    const merged = await line.workspaces.mergeIntoMain(
      session.project_id,
      decision.devCommit,
      `Merge dev into main: the line of session ${sessionId} (dev at ${decision.devCommit.slice(0, 12)})`,
    );
    if (!merged.ok)
      return merged.reason === 'conflict'
        ? refusal(
            409,
            'merge_conflict',
            `refused by the rule "main takes dev only by a clean merge": merging dev into main conflicts in ${merged.conflicts.join(', ')}; main is as it was and nothing was recorded`,
          )
        : refusal(409, 'merge_refused', merged.message);
    // What the merge brought (its first parent to it): the same after a merge made but not recorded.
    const instructions = await line.workspaces.instructionFilesOf(
      session.project_id,
      merged.commit,
      DEFAULT_MAX_INSTRUCTION_FILE_BYTES,
      `${merged.commit}^1`,
    );
    if (!instructions.ok)
      throw new Error(`could not list the instruction files of the merge: ${instructions.reason}`);
    const payload = LineMergedIntoMainPayloadSchema.parse({
      v: 1,
      commit: merged.commit,
      dev_commit: decision.devCommit,
      actor,
      instruction_files: instructions.files.map((file) => ({
        path: file.path,
        sha256: instructionDigest(file.content),
      })),
    });
    const appended = await dependencies.eventLog.append(sessionId, [
      LINE_EVENTS.lineMergedIntoMain.create(actor, payload),
    ]);
    if (!appended.success)
      throw new Error(`could not record line.merged_into_main: ${appended.error.message}`);
    await dependencies.views.load(sessionId);
    return {
      ok: true,
      commit: merged.commit,
      dev_commit: decision.devCommit,
      instruction_files: instructions.files.map((file) => file.path),
      seq: appended.events[0]!.seq,
    };
  });
}
