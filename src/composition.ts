import type { Logger } from 'pino';
import type { ForjaConfig } from './config/config.ts';
import { FORJA_VERSION } from './config/version.ts';
import { createApp, type ForjaApp } from './http/app.ts';
import { createEventLog, openDatabase, type Database, type EventLog } from './store/index.ts';

/** A running Forja without its HTTP listener: what `serve` exposes and what tests drive in-process. */
export interface Forja {
  database: Database;
  eventLog: EventLog;
  app: ForjaApp;
  close(): Promise<void>;
}

/** The composition root: opens the database and wires every part. The only place that knows them all. */
export async function createForja(config: ForjaConfig, logger: Logger, database?: Database): Promise<Forja> {
  const openedDatabase = database ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDirectory: config.dataDirectory }));
  const eventLog = createEventLog(openedDatabase);
  const app = createApp({ database: openedDatabase, eventLog, logger, version: FORJA_VERSION });
  return { database: openedDatabase, eventLog, app, close: () => openedDatabase.close() };
}
