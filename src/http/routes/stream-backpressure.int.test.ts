import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Forja } from '../../composition.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { requestJson, startTestForja } from '../../testing/forja-harness.ts';
import { readServerSentEvents } from '../../testing/read-server-sent-events.ts';
import { listen, type ListeningServer } from '../listen.ts';
import { streamBuffers } from '../sse-client-queue.ts';

const LIMIT = 256 * 1024;
const DELTA_TEXT = 'x'.repeat(16 * 1024);

/** Opens the stream on a raw socket, reads up to its first event (the stream is live), then stops reading. */
async function openStalledStream(
  url: string,
  sessionId: string,
): Promise<{ socket: Socket; readToEnd: () => Promise<number> }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.write(
    `GET /api/sessions/${sessionId}/stream HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/event-stream\r\n\r\n`,
  );
  let received = '';
  await new Promise<void>((resolve) => {
    const onData = (chunk: Buffer) => {
      received += chunk.toString();
      if (received.includes('id: 1\n')) {
        socket.off('data', onData);
        socket.pause();
        resolve();
      }
    };
    socket.on('data', onData);
  });
  return {
    socket,
    readToEnd: () =>
      new Promise<number>((resolve) => {
        let bytes = 0;
        socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
        socket.once('close', () => resolve(bytes));
        socket.resume();
      }),
  };
}

describe.each(testDatabaseEngines().filter((engine) => engine.name === 'pglite'))(
  'event-stream backpressure on $name',
  (engine) => {
    let forja: Forja;
    let server: ListeningServer;
    beforeAll(async () => {
      // The limit comes from the environment, as `forja serve` reads it.
      forja = await startTestForja(engine, { env: { FORJA_STREAM_BUFFER_BYTES: String(LIMIT) } });
      server = await listen(forja.app.fetch, { host: '127.0.0.1', port: 0 });
    });
    afterAll(async () => {
      await server.close();
      await forja.close();
    });

    it('disconnects a client that never reads, keeps its queue under the limit, and keeps serving the client that reads', async () => {
      const project = await requestJson(forja, 'POST', '/api/projects', { name: 'p' });
      const sessionId = (
        await requestJson(forja, 'POST', `/api/projects/${project.body.id}/sessions`, {})
      ).body.id;
      const reader = readServerSentEvents(
        await fetch(`${server.url}/api/sessions/${sessionId}/stream`),
      );
      expect((await reader.next()).id).toBe('1');
      const stalled = await openStalledStream(server.url, sessionId);
      const disconnectedBefore = streamBuffers.disconnected;

      // Deltas at the pace of the client that reads; the stalled one takes nothing after its first event.
      let published = 0;
      let mostQueued = 0;
      while (streamBuffers.disconnected === disconnectedBefore) {
        expect(published).toBeLessThan(10_000); // 160 MB: far past any socket buffer
        forja.liveTurns.publish({
          type: 'agent.delta',
          session_id: sessionId,
          agent: 'criativo',
          turn_id: 't',
          text: DELTA_TEXT,
        });
        published += 1;
        mostQueued = Math.max(mostQueued, streamBuffers.queuedBytes);
        expect(JSON.parse((await reader.next()).data)).toMatchObject({ text: DELTA_TEXT });
      }
      expect(streamBuffers.disconnected).toBe(disconnectedBefore + 1);
      // Both clients' queues: the stalled one's up to the limit, the reading one's one message at most.
      expect(mostQueued).toBeLessThanOrEqual(LIMIT + 2 * (DELTA_TEXT.length + 1024));

      // The stalled client, reading again, gets what the sockets held and then the end: the rest was dropped.
      const bytesAfterStall = await stalled.readToEnd();
      expect(bytesAfterStall).toBeLessThan(published * DELTA_TEXT.length);

      // The reading client is still served.
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
        text: 'still here',
      });
      let message = await reader.next();
      while (message.event !== 'session.event') message = await reader.next();
      expect(JSON.parse(message.data)).toMatchObject({
        type: 'chat.message',
        payload: { text: 'still here' },
      });
      expect(streamBuffers.disconnected).toBe(disconnectedBefore + 1);
      await reader.close();
    });
  },
);
