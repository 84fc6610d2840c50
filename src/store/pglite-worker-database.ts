import { Worker } from 'node:worker_threads';
import type { Database, Queryable } from './database.ts';
import { foregroundStatements } from './foreground-statements.ts';
import {
  describePglite,
  type PgliteDatabase,
  type PgliteDatabaseOptions,
} from './pglite-database.ts';
import type {
  PgliteReply,
  PgliteRequest,
  PgliteWorkerData,
  SerializedError,
} from './pglite-worker-protocol.ts';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type Request = DistributiveOmit<PgliteRequest, 'id'>;

/**
 * Opens PGlite on a worker thread of its own (ADR 0215): the WebAssembly Postgres runs there, and this thread
 * only sends it statements and reads their rows, so no statement, commit or checkpoint holds the event loop
 * (HTTP, SSE, deltas). The same port as `openPgliteDatabase`: one connection, a transaction holds it until it
 * ends, LISTEN/NOTIFY through PGlite's own listeners.
 *
 * The worker keeps the process alive only while a request is in flight, as an in-process PGlite would.
 */
export async function openPgliteWorkerDatabase(
  options: PgliteDatabaseOptions = {},
): Promise<PgliteDatabase> {
  const channel = workerChannel(await startPgliteWorker(options));
  let nextTransaction = 1;

  /** Requests in flight that are not the memory workers' (ADR 0245). */
  const foreground = foregroundStatements();
  const backgroundTransactions = new Set<number>();
  const isForeground = (request: Request) =>
    !('background' in request && request.background === true) &&
    !('tx' in request && request.tx !== undefined && backgroundTransactions.has(request.tx));
  const send = <T>(request: Request): Promise<T> => {
    const sent = channel.send<T>(request);
    return isForeground(request) ? foreground.track(sent) : sent;
  };

  /** Statements outside a transaction (`tx` absent) or in one; `background` ones wait behind the foreground. */
  const queryable = (tx?: number, background = false): Queryable => {
    const priority = background && tx === undefined ? { background: true as const } : {};
    return {
      query: async <Row>(sql: string, params?: unknown[]) => ({
        rows: await send<Row[]>({
          op: 'query',
          sql,
          ...(params === undefined ? {} : { params }),
          ...(tx === undefined ? {} : { tx }),
          ...priority,
        }),
      }),
      execute: async (script) =>
        void (await send({
          op: 'exec',
          script,
          ...(tx === undefined ? {} : { tx }),
          ...priority,
        })),
    };
  };

  const runTransaction = async <T>(
    tx: number,
    work: (transaction: Queryable) => Promise<T>,
    background: boolean,
  ) => {
    await send({ op: 'begin', tx, ...(background ? { background: true as const } : {}) });
    let result: T;
    try {
      result = await work(queryable(tx));
    } catch (error) {
      await send({ op: 'end', tx, commit: false }).catch(() => undefined);
      throw error;
    }
    await send({ op: 'end', tx, commit: true });
    return result;
  };

  /** A memory drain: begins in a quiet moment, behind the foreground in the worker's queue (ADR 0245, 0427). */
  const transaction = async <T>(
    work: (transaction: Queryable) => Promise<T>,
    background: boolean,
  ): Promise<T> => {
    const tx = nextTransaction++;
    if (background) {
      await foreground.quiet();
      backgroundTransactions.add(tx);
    }
    try {
      return await runTransaction(tx, work, background);
    } finally {
      backgroundTransactions.delete(tx);
    }
  };

  const listen = listenOn(channel, send);
  const requestsWaiting = () => foreground.inFlight() > 0;

  /** The memory workers' view of the one connection: every statement of theirs at the lower priority. */
  const background: Database = {
    kind: 'pglite',
    description: describePglite(options),
    ...queryable(undefined, true),
    requestsWaiting,
    transaction: (work) => transaction(work, true),
    listen,
    close: async () => undefined,
  };

  return {
    kind: 'pglite',
    description: describePglite(options),
    ...queryable(),
    dumpDataDirectory: async () => new Blob([await send<ArrayBuffer>({ op: 'dump' })]),
    requestsWaiting,
    background,
    transaction: (work, transactionOptions) =>
      transaction(work, transactionOptions?.background === true),
    listen,
    close: async () => {
      if (channel.gone() !== null) return;
      try {
        await send({ op: 'close' });
      } finally {
        await channel.end(new Error('the database is closed'));
      }
    },
  };
}

/** LISTEN on the worker's connection, each subscription with its listener; the function returned unlistens. */
function listenOn(
  channel: ReturnType<typeof workerChannel>,
  send: <T>(request: Request) => Promise<T>,
): Database['listen'] {
  let nextSubscription = 1;
  return async (channelName, onNotification) => {
    const subscription = nextSubscription++;
    channel.listeners.set(subscription, onNotification);
    try {
      await send({ op: 'listen', subscription, channel: channelName });
    } catch (error) {
      channel.listeners.delete(subscription);
      throw error;
    }
    return async () => {
      channel.listeners.delete(subscription);
      if (channel.gone() === null) await send({ op: 'unlisten', subscription });
    };
  };
}

/** The worker thread with PGlite open in it, once it says it is ready (or why it could not open). */
async function startPgliteWorker(options: PgliteDatabaseOptions): Promise<Worker> {
  const workerData: PgliteWorkerData = {
    ...(options.dataDirectory === undefined ? {} : { dataDirectory: options.dataDirectory }),
    ...(options.sharedBuffers === undefined ? {} : { sharedBuffers: options.sharedBuffers }),
    ...(options.loadDataDir === undefined
      ? {}
      : { loadDataDir: await options.loadDataDir.arrayBuffer() }),
  };
  const worker = new Worker(new URL('./pglite-worker.ts', import.meta.url), {
    workerData,
    ...(workerData.loadDataDir === undefined ? {} : { transferList: [workerData.loadDataDir] }),
  });
  await new Promise<void>((ready, failed) => {
    const onMessage = (message: PgliteReply) => {
      if (!('ready' in message)) return;
      worker.off('message', onMessage);
      worker.off('error', failed);
      if (message.ready) ready();
      else {
        failed(deserializeError(message.error));
        void worker.terminate();
      }
    };
    worker.on('message', onMessage);
    worker.once('error', failed);
  });
  return worker;
}

/**
 * Requests to the worker and their answers, matched by id; notifications to their listeners. The worker is
 * referenced only while a request is in flight. Once it cannot answer (closed, or it died) every request in
 * flight and every later one fails with why (`gone`).
 */
function workerChannel(worker: Worker) {
  const pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  const listeners = new Map<number, (payload: string) => void>();
  let nextId = 1;
  let gone: Error | null = null;
  const settleAll = (error: Error) => {
    gone ??= error;
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  worker.on('message', (message: PgliteReply) => {
    if ('notify' in message) {
      listeners.get(message.notify)?.(message.payload);
      return;
    }
    if (!('id' in message)) return;
    const waiting = pending.get(message.id);
    if (waiting === undefined) return;
    pending.delete(message.id);
    if (pending.size === 0) worker.unref();
    if (message.ok) waiting.resolve(message.value);
    else waiting.reject(deserializeError(message.error));
  });
  worker.on('error', (error) => settleAll(error));
  worker.on('exit', (code) =>
    settleAll(new Error(`the PGlite worker thread exited (code ${code})`)),
  );
  worker.unref();
  const send = <T>(request: Request): Promise<T> => {
    if (gone !== null) return Promise.reject(gone);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      try {
        worker.postMessage({ ...request, id });
      } catch (error) {
        // A parameter that cannot cross the thread (a function, a class with private state).
        pending.delete(id);
        if (pending.size === 0) worker.unref();
        reject(error);
      }
    });
  };
  return {
    send,
    listeners,
    gone: () => gone,
    /** Fails what waits with `error` and stops the thread. */
    end: async (error: Error) => {
      settleAll(error);
      await worker.terminate();
    },
  };
}

function deserializeError(serialized: SerializedError): Error {
  const error = new Error(serialized.message);
  Object.assign(error, serialized.fields);
  error.name = serialized.name;
  return error;
}
