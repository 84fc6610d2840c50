import { mergeIntoMainDecision } from '../agents/index.ts';
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
  seq: number;
}

/**
 * The person's "Merge into main", the line's last step: allowed once, and only after `line.completed`. Merges
 * the `dev` commit the line completed on into `main` with a real merge commit (under the project's git lock)
 * and records `line.merged_into_main {commit, dev_commit, actor}`. In the session lane, so it never races
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
    const payload = LineMergedIntoMainPayloadSchema.parse({
      v: 1,
      commit: merged.commit,
      dev_commit: decision.devCommit,
      actor,
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
      seq: appended.events[0]!.seq,
    };
  });
}
