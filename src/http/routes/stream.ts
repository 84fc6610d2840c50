import { streamSSE } from 'hono/streaming';
import { findSession } from '../../store/index.ts';
import { respondWithError } from '../api-error.ts';
import type { AppDependencies } from '../app-dependencies.ts';
import { newRouter } from '../router.ts';

const KEEPALIVE_MS = 15_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `GET /api/sessions/:id/stream`: server-sent events. Every stored event of the session after `Last-Event-ID`
 * (or `?after=`), then each new one as it commits, as `event: session.event` with its seq as the SSE id; and
 * the live `agent.delta` / `agent.done` of running turns, which have no id (they are not stored, so they are
 * not replayed). A reconnecting browser sends `Last-Event-ID` and resumes with no gap and no duplicate.
 */
export function streamRoutes({ database, notifications, liveTurns }: AppDependencies) {
  return newRouter().get('/api/sessions/:id/stream', async (context) => {
    const id = context.req.param('id');
    if (!UUID.test(id)) return respondWithError(context, 400, 'invalid_field', 'id: must be a UUID.', 'id');
    const resumeFrom = context.req.header('last-event-id') ?? context.req.query('after') ?? '0';
    if (!/^\d+$/.test(resumeFrom)) return respondWithError(context, 400, 'invalid_field', 'Last-Event-ID (or after) must be the seq of an event: a whole number.', 'Last-Event-ID');
    if (!(await findSession(database, id))) return respondWithError(context, 404, 'not_found', `No session with id ${id}.`, 'id');

    return streamSSE(context, async (stream) => {
      const closed = new Promise<void>((resolve) => stream.onAbort(resolve));
      const unsubscribeLive = liveTurns.subscribe(id, (message) => void stream.writeSSE({ event: message.type, data: JSON.stringify(message) }));
      const unsubscribeEvents = notifications.subscribe(id, Number(resumeFrom), (events) => {
        for (const event of events) void stream.writeSSE({ id: String(event.seq), event: 'session.event', data: JSON.stringify(event) });
      });
      const keepalive = setInterval(() => void stream.write(': keepalive\n\n'), KEEPALIVE_MS);
      try {
        await closed;
      } finally {
        clearInterval(keepalive);
        unsubscribeLive();
        unsubscribeEvents();
      }
    });
  });
}
