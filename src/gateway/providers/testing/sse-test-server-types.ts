import type { IncomingHttpHeaders } from 'node:http';

/** One thing a streaming answer does next. */
export type StreamStep =
  /** Write this text as is: usually one server-sent event frame. */
  | { frame: string }
  /** Stop sending and keep the connection open until the client leaves: silence, for timeouts and cancellation. */
  | { stall: true }
  /** Wait for real before the next step: for demos and benchmarks; tests use `stall`. */
  | { delayMs: number }
  /** Drop the connection without ending the answer: a network failure in the middle of a stream. */
  | { disconnect: true };

/** How the server answers one request. */
export type TestServerResponse =
  | { kind: 'stream'; steps: StreamStep[]; headers?: Record<string, string> }
  | { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
  /** Never answer, not even headers: for first-byte timeouts. */
  | { kind: 'hang' };

/** How an exchange ended, seen from the server. */
export type ExchangeOutcome = 'completed' | 'client-closed' | 'server-disconnected';

/** A request the server received, for asserting what an adapter sent. */
export type RecordedRequest = {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON, or the raw text when it was not JSON. */
  body: unknown;
  /** Settles when the exchange is over; `client-closed` proves the client hung up mid-answer. */
  outcome: Promise<ExchangeOutcome>;
};

/** Decides the answer to a request when no queued response is left. */
export type TestServerHandler = (
  request: RecordedRequest,
  requestIndex: number,
) => TestServerResponse | Promise<TestServerResponse>;

/** Answers one of a server's other routes (its model list, Ollama's `/api/show`). */
export type TestServerRoute = (
  request: RecordedRequest,
) => TestServerResponse | Promise<TestServerResponse>;

/** A local server speaking a provider's streaming wire format, scripted per request. */
export type SseTestServer = {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  /** What the adapter should be given as its base URL. */
  baseUrl: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Resolves once the request with this index (0 for the first) has been received. */
  waitForRequest(index: number): Promise<RecordedRequest>;
  /** Queues answers, one per coming request, in order. */
  enqueue(...responses: TestServerResponse[]): void;
  /** Answers requests once the queue is empty (otherwise they get a 500 naming the problem). */
  respondWith(handler: TestServerHandler): void;
  close(): Promise<void>;
};
