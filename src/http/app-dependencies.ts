import type { Logger } from 'pino';
import type { SignInLimiter } from '../accounts/sign-in-limiter.ts';
import type { LiveTurns } from '../agents/index.ts';
import type { ConversationService } from '../conversation/index.ts';
import type { ModelGateway, ModelHealth, PriceTable } from '../gateway/index.ts';
import type { InstructionFiles } from '../harness/index.ts';
import type { Memory } from '../memory/index.ts';
import type { Database, EventLog, EventNotifications } from '../store/index.ts';
import type { CommitDiff, TerminalRunner } from '../workspace/index.ts';
import type { NetworkPolicy } from './access/request-origin-rule.ts';

/** What the HTTP layer is given. Routes receive ports and use cases, never construct them. */
export interface AppDependencies {
  database: Database;
  eventLog: EventLog;
  notifications: EventNotifications;
  liveTurns: LiveTurns;
  gateway: ModelGateway;
  modelHealth: ModelHealth;
  /** The dev agents' terminal: its approval mode and whether its sandbox works, for `GET /api/health`. */
  terminal?: Pick<TerminalRunner, 'settings' | 'probe'>;
  instructionFiles: InstructionFiles;
  conversation: ConversationService;
  /** The relational memory: graph, templates, RAG (record ADR 0101). */
  memory: Memory;
  logger: Logger;
  version: string;
  /** Who may send requests (ADR 0100): the Host and Origin rule, accounts once the first exists, sign-in limits. */
  access: AccessSettings;
  /** Forja's data directory: where an imported project's repository is cloned (ADR 0355). */
  dataDirectory: string;
  /** A push's credentials for the project remote `name`, from the environment (ADR 0415); null: none set. */
  pushCredentials?: (name: string) => { user: string; token: string } | null;
  /** A commit of a project's repository with its diff; null when the project has no such commit. */
  readCommitDiff: (projectId: string, sha: string) => Promise<CommitDiff | null>;
  /** The project's repository on the server (branch main): where the person gets the line's result. */
  workspaceDirectory: (projectId: string) => string;
  /** What each model costs (the dated built-in list unless FORJA_PRICES says otherwise), for `GET …/usage`. */
  prices?: PriceTable;
  /** How far (bytes) an event-stream client may fall behind before it is disconnected; 4 MiB unless set. */
  streamBufferBytes?: number;
}

export interface AccessSettings {
  network: NetworkPolicy;
  /** Whether accounts are required: true from the moment the first person exists. */
  accountsInUse: () => Promise<boolean>;
  signInLimiter: SignInLimiter;
}
