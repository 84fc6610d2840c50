import type { OutboxRule } from '../../store/index.ts';
import { isGraphProjected } from './project-event.ts';

/** The outbox aggregate type of the graph projection; the session drain (`'session','task'`) never takes it. */
export const GRAPH_PROJECTION_AGGREGATE = 'graph_projection';

/**
 * The outbox rule (record ADR 0101): every appended event that matters to the graph gets, in the same transaction,
 * a second outbox row of aggregate type `graph_projection`. The row names the event; the projector reads it.
 */
export const graphProjectionRule: OutboxRule = (event, sessionId) =>
  isGraphProjected(event.type)
    ? [
        {
          aggregateType: GRAPH_PROJECTION_AGGREGATE,
          aggregateId: sessionId,
          payload: { v: 1, event_type: event.type },
        },
      ]
    : [];
