import type { StreamStep } from './sse-test-server-types.ts';

/** One server-sent event as written on the wire: optional `event:` line, one `data:` line, blank line. */
export function serverSentEventFrame(data: unknown, event?: string): StreamStep {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  const eventLine = event === undefined ? '' : `event: ${event}\n`;
  return { frame: `${eventLine}data: ${payload}\n\n` };
}
