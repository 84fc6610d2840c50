/**
 * The worker thread that runs PGlite for `openPgliteWorkerDatabase` (ADR 0215). It owns the one PGlite instance
 * and answers the main thread's requests (`PgliteRequest`). Those that need the connection (a statement outside
 * a transaction, a transaction's begin) take it one at a time from a queue where the memory workers' wait
 * behind the foreground's (ADR 0427); a transaction's own statements and its end go straight to it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { connectionQueue } from './connection-queue.ts';
import { createPglite } from './pglite-database.ts';
import type {
  PgliteReply,
  PgliteRequest,
  PgliteWorkerData,
  SerializedError,
} from './pglite-worker-protocol.ts';

const port = parentPort;
if (port === null) throw new Error('pglite-worker.ts runs only as a worker thread');
const data = workerData as PgliteWorkerData;

const transactions = new Map<number, Transaction>();
const endings = new Map<number, { commit: () => void; rollback: (reason: Error) => void }>();
const subscriptions = new Map<number, () => Promise<void>>();

const reply = (message: PgliteReply, transfer: ArrayBuffer[] = []) =>
  port.postMessage(message, transfer);

function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(error))
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      fields[key] = value;
  return { name: error.name, message: error.message, fields };
}

/** A request other than a begin (`serve` opens transactions: they hold the connection until they end). */
type Handled = Exclude<PgliteRequest, { op: 'begin' }>;

async function handle(pglite: PGlite, request: Handled): Promise<unknown> {
  switch (request.op) {
    case 'query': {
      const target = request.tx === undefined ? pglite : transactionOf(request.tx);
      return (await target.query(request.sql, request.params)).rows;
    }
    case 'exec': {
      const target = request.tx === undefined ? pglite : transactionOf(request.tx);
      await target.exec(request.script);
      return null;
    }
    case 'end': {
      const ending = endings.get(request.tx);
      if (ending === undefined) throw new Error(`no open transaction ${request.tx}`);
      endings.delete(request.tx);
      if (request.commit) ending.commit();
      else ending.rollback(new RolledBack());
      return settled.get(request.tx);
    }
    case 'listen': {
      const unsubscribe = await pglite.listen(request.channel, (payload) =>
        reply({ notify: request.subscription, payload }),
      );
      subscriptions.set(request.subscription, () => unsubscribe());
      return null;
    }
    case 'unlisten': {
      const unsubscribe = subscriptions.get(request.subscription);
      subscriptions.delete(request.subscription);
      await unsubscribe?.();
      return null;
    }
    case 'dump': {
      const dump = await pglite.dumpDataDir('none');
      return dump.arrayBuffer();
    }
    case 'close':
      await pglite.close();
      return null;
  }
}

class RolledBack extends Error {}

/** How each transaction ended, for the `end` request to answer with (a failed commit is its error). */
const settled = new Map<number, Promise<null>>();

function transactionOf(id: number): Transaction {
  const transaction = transactions.get(id);
  if (transaction === undefined) throw new Error(`no open transaction ${id}`);
  return transaction;
}

/**
 * Opens a PGlite transaction that stays open until the main thread's `end` request: `opened` once it is open,
 * `ended` once it no longer holds the connection (committed, rolled back, or never opened).
 */
function begin(pglite: PGlite, id: number): { opened: Promise<null>; ended: Promise<unknown> } {
  let outcome: Promise<null> = Promise.resolve(null);
  const opened = new Promise<null>((resolve, failedToOpen) => {
    outcome = pglite
      .transaction(
        (transaction) =>
          new Promise<void>((commit, rollback) => {
            transactions.set(id, transaction);
            endings.set(id, { commit, rollback });
            resolve(null);
          }),
      )
      .then(
        () => null,
        (error: unknown) => {
          if (error instanceof RolledBack) return null;
          throw error;
        },
      )
      .finally(() => {
        transactions.delete(id);
        settled.delete(id);
      });
    settled.set(id, outcome);
    // A transaction that could not begin answers the `begin` request (once open, `opened` has settled it).
    outcome.catch(failedToOpen);
  });
  return { opened, ended: outcome.catch(() => undefined) };
}

/** The requests that take the connection for themselves, in the connection queue's order. */
const queue = connectionQueue();

/** Answers `request`; one that needs the connection waits for it in the queue, behind foreground ones. */
function serve(pglite: PGlite, request: PgliteRequest): void {
  const answer = (work: Promise<unknown>) =>
    work.then(
      (value) =>
        reply({ id: request.id, ok: true, value }, value instanceof ArrayBuffer ? [value] : []),
      (error: unknown) => reply({ id: request.id, ok: false, error: serializeError(error) }),
    );
  const inTransaction = 'tx' in request && request.tx !== undefined && request.op !== 'begin';
  if (inTransaction || request.op === 'end' || request.op === 'close') {
    answer(handle(pglite, request));
    return;
  }
  const background = 'background' in request && request.background === true;
  queue.submit(background, () => {
    if (request.op !== 'begin') return answer(handle(pglite, request));
    const transaction = begin(pglite, request.tx);
    answer(transaction.opened);
    return transaction.ended;
  });
}

const opening = createPglite({
  ...(data.dataDirectory === undefined ? {} : { dataDirectory: data.dataDirectory }),
  ...(data.sharedBuffers === undefined ? {} : { sharedBuffers: data.sharedBuffers }),
  ...(data.loadDataDir === undefined ? {} : { loadDataDir: new Blob([data.loadDataDir]) }),
});

opening.then(
  (pglite) => {
    port.on('message', (request: PgliteRequest) => serve(pglite, request));
    reply({ ready: true });
  },
  (error: unknown) => reply({ ready: false, error: serializeError(error) }),
);
