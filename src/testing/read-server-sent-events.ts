import { EventSourceParserStream, type EventSourceMessage } from 'eventsource-parser/stream';

/** Reads server-sent events from a response body, one at a time, for tests. */
export function readServerSentEvents(response: Response) {
  const reader = response
    .body!.pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  return {
    /** The next message, or a rejection after `timeoutMs` (a test that waits forever helps nobody). */
    async next(timeoutMs = 10_000): Promise<EventSourceMessage> {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>(
        (_, reject) =>
          (timer = setTimeout(
            () => reject(new Error(`no server-sent event within ${timeoutMs} ms`)),
            timeoutMs,
          )),
      );
      try {
        const { value, done } = await Promise.race([reader.read(), timeout]);
        if (done) throw new Error('the stream ended');
        return value;
      } finally {
        clearTimeout(timer);
      }
    },
    /** Messages until `count` have arrived. */
    async take(count: number): Promise<EventSourceMessage[]> {
      const messages: EventSourceMessage[] = [];
      while (messages.length < count) messages.push(await this.next());
      return messages;
    },
    close: () => reader.cancel(),
  };
}
