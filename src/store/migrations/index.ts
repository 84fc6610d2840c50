import { foundation } from './0001-foundation.ts';
import { metering } from './0002-metering.ts';
import { handoffs } from './0003-handoffs.ts';
import { graph } from './0004-graph.ts';
import { rag } from './0005-rag.ts';
import { ragTextSearch } from './0006-rag-text-search.ts';
import { accounts } from './0007-accounts.ts';
import { usageOnBehalfOf } from './0008-usage-on-behalf-of.ts';
import { interruptedCalls } from './0009-interrupted-calls.ts';
import { appendNotifyAfterCommit } from './0010-append-notify-after-commit.ts';
import { laneLeases } from './0011-lane-leases.ts';
import { fencedAppend } from './0012-fenced-append.ts';
import { appendEventBatch } from './0013-append-event-batch.ts';
import { ragChunkSignatures } from './0014-rag-chunk-signatures.ts';
import { processModels } from './0018-process-models.ts';
import { cleanExitsAndDataDirectory } from './0020-clean-exits-and-data-directory.ts';
import { signInFailures } from './0021-sign-in-failures.ts';
import { callCost } from './0023-call-cost.ts';
import { projectMcpServers } from './0026-project-mcp-servers.ts';
import { projectRemotes } from './0027-project-remotes.ts';
import { sessionViewSnapshots } from './0028-session-view-snapshots.ts';
import type { Migration } from './migration.ts';

/** Every migration, in order. A new one is appended here; an applied one is never edited. */
export const migrations: readonly Migration[] = [
  foundation,
  metering,
  handoffs,
  graph,
  rag,
  ragTextSearch,
  accounts,
  usageOnBehalfOf,
  interruptedCalls,
  appendNotifyAfterCommit,
  laneLeases,
  fencedAppend,
  appendEventBatch,
  ragChunkSignatures,
  processModels,
  cleanExitsAndDataDirectory,
  signInFailures,
  callCost,
  projectMcpServers,
  projectRemotes,
  sessionViewSnapshots,
];
