import type { z } from 'zod';
import type { ConversationDraft } from './conversation-draft.ts';
import type { SessionEvent } from './session-event.ts';

/** The highest payload version this reader understands. */
export const CURRENT_PAYLOAD_VERSION = 1;

/**
 * Parses `value` (the payload, or a part of it named by `pathPrefix`) and hands it to `then`; when it does
 * not parse, records the event as skipped with the fields that failed.
 */
export function read<Schema extends z.ZodType>(
  draft: ConversationDraft,
  event: SessionEvent,
  schema: Schema,
  then: (payload: z.infer<Schema>) => void,
  value: unknown = event.payload,
  pathPrefix = 'payload',
): void {
  const parsed = schema.safeParse(value);
  if (parsed.success) {
    then(parsed.data);
    return;
  }
  const fields = parsed.error.issues
    .map((issue) => [pathPrefix, ...issue.path.map(String)].join('.'))
    .join(', ');
  skip(draft, event, `${event.type} v${CURRENT_PAYLOAD_VERSION} cannot be read at ${fields}`);
}

/** Records an event the fold could not read, keeping it visible. */
export function skip(draft: ConversationDraft, event: SessionEvent, reason: string): void {
  draft.skipped.push({ seq: event.seq, type: event.type, reason });
}
