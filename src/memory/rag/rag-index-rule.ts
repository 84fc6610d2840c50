import type { OutboxRule } from '../../store/index.ts';
import { isRagIndexed } from './fragments-of-event.ts';

/** The outbox aggregate type of the RAG index; a derived index of the log, like the graph. */
export const RAG_INDEX_AGGREGATE = 'rag_index';

/** Every artifact and agent response gets, in its append's transaction, an outbox row for the RAG indexer. */
export const ragIndexRule: OutboxRule = (event, sessionId) =>
  isRagIndexed(event.type)
    ? [
        {
          aggregateType: RAG_INDEX_AGGREGATE,
          aggregateId: sessionId,
          payload: { v: 1, event_type: event.type },
        },
      ]
    : [];
