import type { Logger } from 'pino';
import type { Database, EventLog } from '../store/index.ts';

/** What the HTTP layer is given. Routes receive ports and use cases, never construct them. */
export interface AppDependencies {
  database: Database;
  eventLog: EventLog;
  logger: Logger;
  version: string;
}
