import { createRoute, z } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import {
  findSession,
  type Queryable,
  readEventPage,
  type SessionEvent,
} from '../../store/index.ts';
import { respondWithError } from '../api-error.ts';
import type { AppDependencies } from '../app-dependencies.ts';
import { newRouter } from '../router.ts';
import {
  DEFAULT_STREAM_BUFFER_BYTES,
  SseClientQueue,
  type SseMessage,
} from '../sse-client-queue.ts';
import { errorResponses, idParameter, seqText } from '../schemas.ts';

const KEEPALIVE_MS = 15_000;
/** Stored events replayed per read to a client that connects or resumes; the next read waits for it to take them. */
const REPLAY_BATCH = 200;
/**
 * Bytes of payload one replay page holds (ADR 0307): with the page's events, what a client that stops reading
 * keeps in this process is this much plus one event, however large the session.
 */
export const REPLAY_PAGE_BYTES = 256 * 1024;

/** Replays under way in this process and the events their pages hold now (for tests and status). */
export const streamReplays = { active: 0, heldEvents: 0, heldBytes: 0, pages: 0 };

const stream = createRoute({
  method: 'get',
  path: '/api/sessions/{id}/stream',
  summary:
    "Server-sent events: the session's stored events after Last-Event-ID (or ?after=), then new ones and live deltas",
  request: {
    params: z.object({ id: idParameter('id') }),
    query: z.object({
      after: seqText()
        .optional()
        .openapi({ param: { name: 'after', in: 'query' }, example: '0' }),
    }),
    headers: z.object({
      'last-event-id': seqText()
        .optional()
        .openapi({ param: { name: 'last-event-id', in: 'header' }, example: '12' }),
    }),
  },
  responses: {
    200: {
      description: 'An event stream',
      content: { 'text/event-stream': { schema: z.string() } },
    },
    ...errorResponses(400, 404),
  },
});

/**
 * `GET /api/sessions/:id/stream`: server-sent events. Every stored event of the session after `Last-Event-ID`
 * (or `?after=`), then each new one as it commits, as `event: session.event` with its seq as the SSE id; and
 * the live `agent.delta` / `agent.done` of running turns, which have no id (they are not stored, so they are
 * not replayed), except that a new stream starts with `agent.partial`: each running turn's text so far. A reconnecting browser sends `Last-Event-ID` and resumes with no gap and no duplicate. A resume
 * point past the session's last event is refused: the stream would wait for events that may never come.
 */
export function streamRoutes({
  database,
  notifications,
  liveTurns,
  logger,
  streamBufferBytes,
}: AppDependencies) {
  return newRouter().openapi(stream, async (context) => {
    const { id } = context.req.valid('param');
    const fromHeader = context.req.valid('header')['last-event-id'];
    const resumeFrom = fromHeader ?? context.req.valid('query').after ?? 0;
    const field = fromHeader === undefined ? 'after' : 'last-event-id';
    const session = await findSession(database, id);
    if (!session)
      return respondWithError(context, 404, 'not_found', `No session with id ${id}.`, 'id');
    if (resumeFrom > session.last_seq) {
      return respondWithError(
        context,
        400,
        'invalid_field',
        `${field}: must not be past the session's last event (seq ${session.last_seq}).`,
        field,
      );
    }

    return streamSSE(context, async (stream) => {
      const closed = new Promise<void>((resolve) => stream.onAbort(resolve));
      // Every write is awaited through the client's bounded queue: a client that stops reading is disconnected
      // when its queue passes the limit, and resumes with Last-Event-ID (ADR 0140).
      const queue = new SseClientQueue(
        (message) => stream.writeSSE(message),
        streamBufferBytes ?? DEFAULT_STREAM_BUFFER_BYTES,
        () => {
          logger.info(
            { session_id: id },
            'an event-stream client fell too far behind; disconnected, it resumes from Last-Event-ID',
          );
          stream.abort();
        },
      );
      // Text a running turn streamed before this tab connected comes first, taken in the same tick as subscribing: no gap.
      for (const partial of liveTurns.partials(id))
        queue.push({ event: 'agent.partial', data: JSON.stringify(partial) });
      const unsubscribeLive = liveTurns.subscribe(id, (message) =>
        queue.push({ event: message.type, data: serialisedOnce(message) }),
      );
      // Other processes know of this stream before it replays: a turn that starts after its first event streams here.
      await liveTurns.announced(id);
      // The stored events are replayed at the client's pace, a page at a time; then the session's feed follows.
      const replayedTo = await replay(database, id, resumeFrom, queue, () => stream.aborted);
      // A client that left during the replay is not subscribed: its feed would read the rest of the session for no one.
      if (stream.aborted) {
        unsubscribeLive();
        queue.close();
        return;
      }
      const unsubscribeEvents = notifications.subscribe(id, replayedTo, (events) => {
        for (const event of events) queue.push(sessionEventMessage(event));
      });
      const keepalive = setInterval(() => void stream.write(': keepalive\n\n'), KEEPALIVE_MS);
      try {
        if (!stream.aborted) await closed;
      } finally {
        clearInterval(keepalive);
        unsubscribeLive();
        unsubscribeEvents();
        queue.close();
      }
    });
  });
}

/**
 * Replays the stored events after `from` to one client, one page at a time (ADR 0307): the next page is read
 * only once the client has taken the last one, so a client that stops reading holds one page, not the session.
 * Returns the seq it replayed to.
 */
async function replay(
  database: Queryable,
  sessionId: string,
  from: number,
  queue: SseClientQueue,
  aborted: () => boolean,
): Promise<number> {
  let replayedTo = from;
  streamReplays.active += 1;
  try {
    for (let more = true; more && !aborted(); ) {
      const page = await readEventPage(database, sessionId, {
        afterSeq: replayedTo,
        limit: REPLAY_BATCH,
        maxBytes: REPLAY_PAGE_BYTES,
      });
      streamReplays.pages += 1;
      streamReplays.heldEvents += page.events.length;
      streamReplays.heldBytes += page.bytes;
      try {
        for (const event of page.events) queue.push(sessionEventMessage(event));
        replayedTo = page.events.at(-1)?.seq ?? replayedTo;
        more = page.more;
        await queue.drained();
      } finally {
        streamReplays.heldEvents -= page.events.length;
        streamReplays.heldBytes -= page.bytes;
      }
    }
  } finally {
    streamReplays.active -= 1;
  }
  return replayedTo;
}

function sessionEventMessage(event: SessionEvent): SseMessage {
  return { id: String(event.seq), event: 'session.event', data: serialisedOnce(event) };
}

/**
 * Every client of a session is handed the same event and live-message objects (one feed per session, one
 * publish per delta), and neither changes once published: each is serialised once, not once per client.
 */
const serialised = new WeakMap<object, string>();
function serialisedOnce(value: object): string {
  let text = serialised.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    serialised.set(value, text);
  }
  return text;
}
