import { describe, expect, it } from 'vitest';
import { listen } from './listen.ts';

describe('listen: graceful close', () => {
  it('lets a request in flight finish, then refuses new connections', async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let arrived: () => void = () => undefined;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    const server = await listen(
      async () => {
        arrived();
        await released;
        return new Response('finished');
      },
      { host: '127.0.0.1', port: 0 },
    );
    const inFlight = fetch(`${server.url}/slow`).then((response) => response.text());
    await requestArrived;
    let closed = false;
    const closing = server.close().then(() => (closed = true));
    // Closing waits for the request: it is not done while the handler still holds it.
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    release();
    expect(await inFlight).toBe('finished');
    await closing;
    expect(closed).toBe(true);
    await expect(fetch(`${server.url}/after`)).rejects.toThrow();
  });

  it('ends open event streams at once instead of waiting for them through the grace period', async () => {
    const encoder = new TextEncoder();
    let cancelled = false;
    const server = await listen(
      () =>
        new Response(
          new ReadableStream({
            start: (controller) => controller.enqueue(encoder.encode(': hello\n\n')),
            cancel: () => void (cancelled = true),
          }),
          { headers: { 'content-type': 'text/event-stream' } },
        ),
      // A grace period longer than any test: closing returns only because the stream is ended.
      { host: '127.0.0.1', port: 0, shutdownGraceMs: 3_600_000 },
    );
    const response = await fetch(`${server.url}/stream`);
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(': hello\n\n');
    await server.close();
    await expect(reader.read()).rejects.toThrow();
    expect(cancelled).toBe(true);
  });
});
