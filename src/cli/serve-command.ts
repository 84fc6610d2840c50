import type { Logger } from 'pino';
import { createForja } from '../composition.ts';
import type { ForjaConfig } from '../config/config.ts';
import { listen } from '../http/listen.ts';

/** What `forja demo` changes: the environment Forja reads (its scripted model) and a word once it listens. */
export interface ServeOptions {
  env?: NodeJS.ProcessEnv;
  onListening?: (url: string) => void;
}

/**
 * `forja serve`: the API (and web UI) on HOST:PORT until SIGINT or SIGTERM, then a clean shutdown: requests
 * in flight finish, the database is closed, the data directory is released.
 */
export async function serveCommand(config: ForjaConfig, logger: Logger, options: ServeOptions = {}): Promise<void> {
  const forja = await createForja(config, logger, options.env ? { env: options.env } : {});
  const server = await listen(forja.app.fetch, { host: config.host, port: config.port }).catch(async (error: unknown) => {
    await forja.close();
    throw error;
  });
  logger.info({ url: server.url, database: forja.database.description, model: forja.gateway.status() }, `Forja is listening on ${server.url}`);
  options.onListening?.(server.url);
  const resumed = await forja.conversation.resumeInterruptedTurns();
  if (resumed.length > 0) logger.info({ sessions: resumed.map((turn) => turn.sessionId) }, 'resuming turns interrupted by the last stop');
  // Agents activated by a handoff just before the last stop still owe their kickoff turn.
  const accepted = await forja.database.query<{ session_id: string }>("select distinct session_id from handoffs where status = 'accepted'");
  for (const { session_id: sessionId } of accepted.rows) void forja.conversation.startPendingKickoffs(sessionId);

  let stopping: Promise<void> | null = null;
  const stop = (signal: string) => {
    stopping ??= (async () => {
      logger.info({ signal }, 'shutting down');
      await server.close();
      await forja.close();
      logger.info('stopped');
    })();
    return stopping;
  };
  await new Promise<void>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stop(signal).then(resolve));
  });
}
