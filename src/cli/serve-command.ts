import type { Logger } from 'pino';
import { createForja } from '../composition.ts';
import type { ForjaConfig } from '../config/config.ts';
import { isLoopbackHost } from '../http/access/request-origin-rule.ts';
import { listen } from '../http/listen.ts';

/** What `forja demo` changes: the environment Forja reads (its scripted model) and a word once it listens. */
export interface ServeOptions {
  env?: NodeJS.ProcessEnv;
  onListening?: (url: string) => void;
  /** Where the refusal to serve a network without accounts is written (default: the process's stderr). */
  stderr?: (text: string) => void;
}

/**
 * `forja serve`: the API (and web UI) on HOST:PORT until SIGINT or SIGTERM, then a clean shutdown: requests
 * in flight finish, the database is closed, the data directory is released.
 */
export async function serveCommand(
  config: ForjaConfig,
  logger: Logger,
  options: ServeOptions = {},
): Promise<number> {
  // Listened for before anything opens: a stop while the database is still opening waits for it and then
  // closes it, instead of killing the process with the data directory still locked.
  const signalled = new Promise<string>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      process.once(signal, () => resolve(signal));
    watchLauncher(() => resolve('launcher exited'));
  });
  const forja = await createForja(config, logger, {
    claimDataDirectory: true,
    ...(options.env ? { env: options.env } : {}),
  });
  // Beyond loopback, everyone on the network could read every project and approve any command (ADR 0100).
  if (!isLoopbackHost(config.host) && !(await forja.accountsInUse())) {
    await forja.close();
    (options.stderr ?? ((text: string) => process.stderr.write(text)))(
      `forja: HOST=${config.host} is not a loopback address, and no account exists: Forja does not serve a network without sign-in. ` +
        'Create the first account with `forja user add NAME` (and set FORJA_PUBLIC_URL to the address people use), or listen on HOST=127.0.0.1.\n',
    );
    return 2;
  }
  const server = await listen(forja.app.fetch, { host: config.host, port: config.port }).catch(
    async (error: unknown) => {
      await forja.close();
      throw error;
    },
  );
  logger.info(
    {
      url: server.url,
      database: forja.database.description,
      model: forja.gateway.status(),
      accounts: await forja.accountsInUse(),
    },
    `Forja is listening on ${server.url}`,
  );
  options.onListening?.(server.url);
  // Every turn a lane owed at the last stop (a kickoff, a message, an unblock…) runs once (ADR 0345).
  const resumed = await forja.conversation.resumeInterruptedTurns();
  if (resumed.length > 0)
    logger.info(
      { sessions: resumed.map((turn) => turn.sessionId) },
      'resuming turns interrupted by the last stop',
    );

  const signal = await signalled;
  const stopping = Date.now();
  logger.info({ signal }, 'shutting down');
  const { endedStreams } = await server.close();
  await forja.close();
  logger.info({ stop_ms: Date.now() - stopping, ended_event_streams: endedStreams }, 'stopped');
  return 0;
}

/**
 * Under npm or npx (`npm_lifecycle_event` is set) a shell may stand between npm and the server, and npm's
 * SIGTERM then stops only the shell (`npx forja serve`; `npm start` execs, so it is not affected). When the
 * process that started the server goes away, the server is orphaned: it stops as if signalled.
 */
function watchLauncher(stop: () => void): void {
  if (!process.env['npm_lifecycle_event']) return;
  const launcher = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === launcher) return;
    clearInterval(watch);
    stop();
  }, 500);
  watch.unref();
}
