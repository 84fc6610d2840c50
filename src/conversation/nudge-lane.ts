import { PERSON_ACTOR } from '../domain/conversation/index.ts';
import type { SessionView } from '../agents/index.ts';
import { findSession, readDoneTaskIds, readProjectBacklog } from '../store/index.ts';
import type { ConversationDependencies, Refusal } from './conversation-dependencies.ts';
import { refusal } from './conversation-dependencies.ts';
import { idleLanes, type IdleLane, type LaneTask, nudgeText, notIdleReason } from './idle-lanes.ts';
import { postMessage, type PostedMessage } from './post-message.ts';

/** The idle dev lanes of a session (`idleLanes`), read with the project's backlog and this process's agents. */
export async function sessionIdleLanes(
  dependencies: ConversationDependencies,
  sessionId: string,
): Promise<IdleLane[] | Refusal> {
  const read = await readLanes(dependencies, sessionId);
  if ('ok' in read) return read;
  return idleLanes(read.view.state, read.view.events, read.tasks, hasRuntimeIn(dependencies));
}

/**
 * The person's nudge of an idle dev lane: a message to the dev naming its module's unfinished tasks, which
 * owes the lane a turn like any message. Refused (409 `lane_not_idle`, with why) when the lane is not idle.
 */
export async function nudgeLane(
  dependencies: ConversationDependencies,
  sessionId: string,
  agent: string,
  actor = PERSON_ACTOR,
): Promise<(PostedMessage & { lane: IdleLane }) | Refusal> {
  const read = await readLanes(dependencies, sessionId);
  if ('ok' in read) return read;
  const { state, events } = read.view;
  const hasRuntime = hasRuntimeIn(dependencies);
  const lane = idleLanes(state, events, read.tasks, hasRuntime).find(
    (idle) => idle.agent === agent,
  );
  if (lane === undefined) {
    const reason = notIdleReason(state, events, agent, { tasks: read.tasks, hasRuntime });
    return refusal(
      409,
      'lane_not_idle',
      `slug: ${agent} is not idle: ${reason ?? 'it has no runtime here'}.`,
    );
  }
  const posted = await postMessage(dependencies, sessionId, nudgeText(lane), agent, actor);
  return posted.ok ? { ...posted, lane } : posted;
}

async function readLanes(
  dependencies: ConversationDependencies,
  sessionId: string,
): Promise<{ view: SessionView; tasks: LaneTask[] } | Refusal> {
  const session = await findSession(dependencies.database, sessionId);
  if (session === null) return refusal(404, 'not_found', `No session with id ${sessionId}.`);
  const [view, backlog, done] = await Promise.all([
    dependencies.views.load(sessionId),
    readProjectBacklog(dependencies.database, session.project_id),
    readDoneTaskIds(dependencies.database, session.project_id),
  ]);
  // This session's line: the tasks an earlier line merged into main did not do (ADR 0416).
  const tasks = backlog.tasks.flatMap(({ id, title, module }) =>
    module === undefined || done.has(id) ? [] : [{ id, title, module }],
  );
  return { view, tasks };
}

const hasRuntimeIn = (dependencies: ConversationDependencies) => (agent: string) =>
  dependencies.catalog.get(agent) !== null;
