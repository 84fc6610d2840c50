import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { createForja, type Forja } from '../../composition.ts';
import { loadConfig } from '../../config/config.ts';
import { SESSION_EVENTS } from '../../domain/conversation/index.ts';
import { type Database, readEventPage } from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { requestJson } from '../../testing/forja-harness.ts';
import { readServerSentEvents } from '../../testing/read-server-sent-events.ts';
import { listen, type ListeningServer } from '../listen.ts';
import { REPLAY_PAGE_BYTES, streamReplays } from './stream.ts';

const EVENT_CHARS = 256 * 1024;
const EVENTS = 60;
const STALLED = 5;

/** A client that asks for the whole stream and never reads a byte of it. */
function stalledClient(url: string, sessionId: string): Socket {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.pause();
  socket.on('error', () => undefined);
  socket.write(
    `GET /api/sessions/${sessionId}/stream HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/event-stream\r\n\r\n`,
  );
  return socket;
}

describe.each(testDatabaseEngines())('the replay of a large session on $name', (engine) => {
  let forja: Forja;
  let server: ListeningServer;
  let sessionId: string;
  /** Reads of a page of session events (replays and session feeds alike), counted as they are sent. */
  let pageReads = 0;
  beforeAll(async () => {
    const database = await engine.open();
    const loaded = loadConfig({});
    if (!loaded.ok) throw new Error(loaded.error.message);
    const counting: Database = {
      ...database,
      query: (sql, params) => {
        if (sql.includes('octet_length(payload::text)')) pageReads += 1;
        return database.query(sql, params);
      },
    };
    const opened = await createForja(loaded.config, pino({ level: 'silent' }), {
      env: {},
      database: counting,
    });
    forja = { ...opened, close: async () => (await opened.close(), await database.close()) };
    server = await listen(forja.app.fetch, { host: '127.0.0.1', port: 0 });
    const project = await requestJson(forja, 'POST', '/api/projects', { name: 'p' });
    sessionId = (await requestJson(forja, 'POST', `/api/projects/${project.body.id}/sessions`, {}))
      .body.id;
    // 15 MB of stored answers, far past what the sockets of a client that stops reading take.
    for (let index = 0; index < EVENTS; index += 10)
      await forja.eventLog.append(
        sessionId,
        Array.from({ length: 10 }, (_, offset) =>
          SESSION_EVENTS.chatMessage.create('user', {
            v: 1,
            text: `${index + offset} ${'y'.repeat(EVENT_CHARS)}`,
          }),
        ),
      );
  }, 120_000);
  afterAll(async () => {
    await server.close();
    await forja.close();
  });

  it('reads pages bounded in bytes, always at least one event, that together are the whole log in order', async () => {
    const seqs: number[] = [];
    for (let afterSeq = 0, more = true; more; ) {
      const page = await readEventPage(forja.database, sessionId, {
        afterSeq,
        limit: 200,
        maxBytes: 600 * 1024,
      });
      // `more` may be said of a page that ended at its bound just before the end: the next one is empty.
      if (page.events.length === 0) {
        expect(page.more).toBe(false);
        break;
      }
      // Under the bound, or over it by its last event only.
      expect(page.bytes - (EVENT_CHARS + 100)).toBeLessThan(600 * 1024);
      expect(page.events.length).toBeLessThanOrEqual(4);
      seqs.push(...page.events.map((event) => event.seq));
      afterSeq = page.events.at(-1)!.seq;
      more = page.more;
    }
    expect(seqs).toEqual(Array.from({ length: EVENTS + 1 }, (_, index) => index + 1));
    const tiny = await readEventPage(forja.database, sessionId, {
      afterSeq: 1,
      limit: 200,
      maxBytes: 1,
    });
    expect(tiny.events.map((event) => event.seq)).toEqual([2]);
  });

  it('replays to a reading client page by page, and a client that stops reading holds one page, released when it leaves', async () => {
    const pagesBefore = streamReplays.pages;
    const reader = readServerSentEvents(
      await fetch(`${server.url}/api/sessions/${sessionId}/stream`),
    );
    const replayed = await reader.take(EVENTS + 1);
    expect(replayed.at(-1)!.id).toBe(String(EVENTS + 1));
    await reader.close();
    // 15 MB in pages of 256 KiB: one page per event here, not one read of the whole session.
    expect(streamReplays.pages - pagesBefore).toBeGreaterThanOrEqual(
      Math.floor((EVENTS * EVENT_CHARS) / REPLAY_PAGE_BYTES),
    );

    const feedReadsBefore = pageReads - streamReplays.pages;
    const clients = Array.from({ length: STALLED }, () => stalledClient(server.url, sessionId));
    await expect.poll(() => streamReplays.active, { timeout: 60_000 }).toBe(STALLED);
    await expect.poll(() => streamReplays.heldEvents, { timeout: 60_000 }).toBeGreaterThan(0);
    // What the stalled clients pin here: a page each at most (its bytes plus one event), never the session.
    expect(streamReplays.heldBytes).toBeLessThanOrEqual(
      STALLED * (REPLAY_PAGE_BYTES + EVENT_CHARS + 100),
    );
    for (const client of clients) client.destroy();
    await expect.poll(() => streamReplays.active, { timeout: 60_000 }).toBe(0);
    expect(streamReplays.heldEvents).toBe(0);
    expect(streamReplays.heldBytes).toBe(0);
    // Clients that left during the replay were not subscribed: no session feed read the rest of the log for them.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pageReads - streamReplays.pages).toBe(feedReadsBefore);
  }, 120_000);
});
