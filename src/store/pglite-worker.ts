/**
 * The worker thread that runs PGlite for `openPgliteWorkerDatabase` (ADR 0215). It owns the one PGlite instance
 * and answers the main thread's requests (`PgliteRequest`) in the order PGlite's own locks give them: queries
 * outside a transaction wait for an open one, as they do in-process.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { PGlite, Transaction } from '@electric-sql/pglite';
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

async function handle(pglite: PGlite, request: PgliteRequest): Promise<unknown> {
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
    case 'begin':
      return begin(pglite, request.tx);
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

/** Opens a PGlite transaction that stays open until the main thread's `end` request; resolves once it is open. */
function begin(pglite: PGlite, id: number): Promise<null> {
  return new Promise<null>((opened, failedToOpen) => {
    const outcome = pglite
      .transaction(
        (transaction) =>
          new Promise<void>((commit, rollback) => {
            transactions.set(id, transaction);
            endings.set(id, { commit, rollback });
            opened(null);
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
}

const opening = createPglite({
  ...(data.dataDirectory === undefined ? {} : { dataDirectory: data.dataDirectory }),
  ...(data.loadDataDir === undefined ? {} : { loadDataDir: new Blob([data.loadDataDir]) }),
});

opening.then(
  (pglite) => {
    port.on('message', (request: PgliteRequest) => {
      handle(pglite, request).then(
        (value) =>
          reply({ id: request.id, ok: true, value }, value instanceof ArrayBuffer ? [value] : []),
        (error: unknown) => reply({ id: request.id, ok: false, error: serializeError(error) }),
      );
    });
    reply({ ready: true });
  },
  (error: unknown) => reply({ ready: false, error: serializeError(error) }),
);
