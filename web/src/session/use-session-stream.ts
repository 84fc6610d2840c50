import { useEffect, useReducer } from 'react';
import { getJson } from '../api/client.ts';
import type { AgentDelta, AgentDone, StoredEvent } from '../api/types.ts';
import { INITIAL_STREAM_STATE, streamReducer, type StreamState } from './stream-reducer.ts';

const PAGE_SIZE = 1000;
const MAX_RETRY_DELAY_MS = 10_000;

/**
 * The session's events, live. Loads the log page by page, then follows `GET /stream` from the last seq. The
 * browser's EventSource reconnects by itself and sends Last-Event-ID, so the server resumes with no gap;
 * when the server refuses the stream outright (EventSource gives up), a new one is opened from the last seq
 * seen, with backoff. Events are kept by seq, so nothing can appear twice.
 */
export function useSessionStream(sessionId: string): StreamState {
  const [state, dispatch] = useReducer(streamReducer, INITIAL_STREAM_STATE);

  useEffect(() => {
    let stopped = false;
    let source: EventSource | null = null;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let lastSeq = 0;
    let failures = 0;

    const connect = () => {
      if (stopped) return;
      const stream = new EventSource(
        `/api/sessions/${encodeURIComponent(sessionId)}/stream?after=${lastSeq}`,
      );
      source = stream;
      stream.onopen = () => {
        failures = 0;
        dispatch({ type: 'connection', connection: 'open' });
      };
      stream.addEventListener('session.event', (message) => {
        const event = parse<StoredEvent>(message.data);
        if (event === null || typeof event.seq !== 'number') return;
        lastSeq = Math.max(lastSeq, event.seq);
        dispatch({ type: 'events', events: [event] });
      });
      stream.addEventListener('agent.delta', (message) => {
        const delta = parse<AgentDelta>(message.data);
        if (delta !== null) dispatch({ type: 'delta', delta });
      });
      stream.addEventListener('agent.partial', (message) => {
        const partial = parse<AgentDelta>(message.data);
        if (partial !== null) dispatch({ type: 'partial', partial });
      });
      stream.addEventListener('agent.done', (message) => {
        const done = parse<AgentDone>(message.data);
        if (done !== null) dispatch({ type: 'done', done });
      });
      stream.onerror = () => {
        dispatch({ type: 'connection', connection: 'reconnecting' });
        if (stream.readyState !== EventSource.CLOSED) return;
        stream.close();
        failures += 1;
        retryTimer = setTimeout(connect, Math.min(MAX_RETRY_DELAY_MS, 500 * 2 ** failures));
      };
    };

    loadEvents(sessionId).then(
      (events) => {
        if (stopped) return;
        lastSeq = events.at(-1)?.seq ?? 0;
        dispatch({ type: 'loaded', events });
        connect();
      },
      (error: unknown) => !stopped && dispatch({ type: 'failed', error }),
    );
    return () => {
      stopped = true;
      source?.close();
      clearTimeout(retryTimer);
    };
  }, [sessionId]);

  return state;
}

async function loadEvents(sessionId: string): Promise<StoredEvent[]> {
  const events: StoredEvent[] = [];
  for (;;) {
    const after = events.at(-1)?.seq ?? 0;
    const page = await getJson('/api/sessions/{id}/events', {
      path: { id: sessionId },
      query: { after: String(after), limit: String(PAGE_SIZE) },
    });
    events.push(...page.events);
    if (page.events.length < PAGE_SIZE) return events;
  }
}

function parse<T>(data: string): T | null {
  try {
    return JSON.parse(data) as T;
  } catch {
    return null;
  }
}
