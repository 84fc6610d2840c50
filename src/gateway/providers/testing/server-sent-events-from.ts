import type { EventSourceMessage } from 'eventsource-parser';

/** Feeds a decoder events directly, without HTTP: each item is event data, or `[event, data]`. */
export async function* serverSentEventsFrom(
  items: Array<string | object | [event: string, data: object]>,
): AsyncGenerator<EventSourceMessage> {
  for (const item of items) {
    if (Array.isArray(item)) yield { event: item[0], data: JSON.stringify(item[1]) };
    else yield { data: typeof item === 'string' ? item : JSON.stringify(item) };
  }
}
