import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type {
  ExchangeOutcome,
  RecordedRequest,
  SseTestServer,
  StreamStep,
  TestServerHandler,
  TestServerResponse,
  TestServerRoute,
} from './sse-test-server-types.ts';

/**
 * Starts a node:http server on 127.0.0.1 (a free port) that answers POSTs to `path` with scripted
 * responses and records every request. Provider-specific servers wrap it with their path and base URL.
 */
export async function startSseTestServer(options: {
  path: string;
  baseUrlSuffix: string;
  /** Other routes the server answers (`GET /v1/models`, `POST /api/show`), keyed `METHOD /path`. */
  routes?: Readonly<Record<string, TestServerRoute>>;
  /**
   * Looked at before the queue for every request to `path`: an answer here is what the real server says
   * before any model runs (model not found, context too long, tools unsupported); null lets it through.
   */
  guard?: (request: RecordedRequest) => TestServerResponse | null;
}): Promise<SseTestServer> {
  const queue: TestServerResponse[] = [];
  const requests: RecordedRequest[] = [];
  let handler: TestServerHandler | undefined;
  const requestWaiters: Array<() => void> = [];

  const server = createServer((incoming, outgoing) => {
    void answer(incoming, outgoing);
  });

  async function answer(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    let serverDisconnected = false;
    const outcome = new Promise<ExchangeOutcome>((resolve) => {
      outgoing.on('close', () => {
        if (serverDisconnected) resolve('server-disconnected');
        else resolve(outgoing.writableFinished ? 'completed' : 'client-closed');
      });
    });
    const text = await readBody(incoming);
    const recorded: RecordedRequest = {
      method: incoming.method ?? '',
      path: incoming.url ?? '',
      headers: incoming.headers,
      body: parseJsonOrText(text),
      outcome,
    };
    const requestIndex = requests.push(recorded) - 1;
    for (const wake of requestWaiters.splice(0)) wake();
    const route = options.routes?.[`${recorded.method} ${recorded.path}`];
    const response =
      route !== undefined
        ? await route(recorded)
        : recorded.path !== options.path
          ? jsonError(404, `test server: no route ${recorded.method} ${recorded.path}`)
          : (options.guard?.(recorded) ??
            queue.shift() ??
            (await handler?.(recorded, requestIndex)) ??
            jsonError(500, `test server: no response scripted for request #${requestIndex}`));
    await send(outgoing, response, () => {
      serverDisconnected = true;
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    baseUrl: url + options.baseUrlSuffix,
    requests,
    waitForRequest: async (index) => {
      while (requests[index] === undefined)
        await new Promise<void>((resolve) => requestWaiters.push(resolve));
      return requests[index];
    },
    enqueue: (...responses) => void queue.push(...responses),
    respondWith: (next) => void (handler = next),
    close: async () => {
      // Stalled and hanging exchanges would otherwise keep `close` waiting forever.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function send(
  outgoing: ServerResponse,
  response: TestServerResponse,
  markDisconnected: () => void,
): Promise<void> {
  if (response.kind === 'hang') return;
  if (response.kind === 'json') {
    outgoing.writeHead(response.status, {
      'content-type': 'application/json',
      ...response.headers,
    });
    outgoing.end(JSON.stringify(response.body));
    return;
  }
  outgoing.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    ...response.headers,
  });
  outgoing.flushHeaders();
  for (const step of response.steps) {
    if (outgoing.destroyed) return;
    if (await runStep(outgoing, step, markDisconnected)) return;
  }
  outgoing.end();
}

// Returns true when the answer must not go on (stalled or dropped).
async function runStep(
  outgoing: ServerResponse,
  step: StreamStep,
  markDisconnected: () => void,
): Promise<boolean> {
  if ('frame' in step) outgoing.write(step.frame);
  else if ('delayMs' in step) await delay(step.delayMs);
  else if ('stall' in step) return true;
  else {
    markDisconnected();
    // `end` (not `destroy`) so what was written still arrives before the connection drops.
    outgoing.socket?.end();
    return true;
  }
  return false;
}

function jsonError(status: number, message: string): TestServerResponse {
  return { kind: 'json', status, body: { error: { message, type: 'test_server_error' } } };
}

async function readBody(incoming: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
