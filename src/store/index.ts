export type { Database, DatabaseKind, ListenEvents, Queryable, QueryResult } from './database.ts';
export { openDatabase, type DatabaseSettings } from './open-database.ts';
export { DataDirectoryInUseError } from './errors/data-directory-in-use-error.ts';
export { DataDirectoryUnusableError } from './errors/data-directory-unusable-error.ts';
export { DataDirectoryMismatchError } from './errors/data-directory-mismatch-error.ts';
export {
  claimDataDirectory,
  DATA_DIRECTORY_ID_FILE,
  readDataDirectoryId,
} from './data-directory-identity.ts';
export { createEventLog, type EventLog } from './event-log/event-log.ts';
export { recordingTurnEnds } from './event-log/recording-turn-ends.ts';
export type { AppendOptions, OutboxRule } from './event-log/append-events.ts';
export type {
  AppendOutcome,
  ExpectedSeqConflict,
  SessionNotFound,
} from './event-log/append-outcome.ts';
export {
  AppendConflictError,
  appendedOrThrow,
  isAppendConflict,
} from './event-log/append-outcome.ts';
export type { NewSessionEvent, OutboxMessage, SessionEvent } from './event-log/session-event.ts';
export {
  DEFAULT_READ_LIMIT,
  type EventPage,
  readEventPage,
  readEvents,
  type ReadOptions,
} from './event-log/read-events.ts';
export {
  drainOutbox,
  defaultRetryDelayMs,
  type DrainOptions,
  type DrainReport,
} from './outbox/drain-outbox.ts';
export type { OutboxHandlerResult, OutboxRow } from './outbox/outbox-row.ts';
export { createProject, findProject, listProjects, type Project } from './projects/projects.ts';
export { readProjectMcpServers, writeProjectMcpServers } from './mcp/project-mcp-servers.ts';
export {
  deleteProjectRemote,
  findProjectRemote,
  listProjectRemotes,
  putProjectRemote,
  type ProjectRemote,
} from './projects/project-remotes.ts';
export { createSession, findSession, listSessions, type Session } from './projects/sessions.ts';
export {
  createEventNotifications,
  SESSION_EVENTS_CHANNEL,
  type EventNotifications,
  type HeadsHeard,
  type HeadsObserver,
  type SessionEventsListener,
} from './event-log/event-notifications.ts';
export { deliveringAppends } from './event-log/delivering-appends.ts';
export {
  readAgentInstructions,
  writeAgentInstructions,
  type AgentInstructions,
} from './instructions/agent-instructions.ts';
export {
  insertHandoff,
  listHandoffs,
  lockHandoff,
  updateHandoffStatus,
} from './handoffs/handoff-rows.ts';
export { toSessionEvent, type SessionEventRow } from './event-log/session-event-row.ts';
export { DEFAULT_OUTBOX_RETENTION_MS, pruneOutbox } from './outbox/prune-outbox.ts';
export {
  ACCOUNTS_CHANNEL,
  anyPersonExists,
  changeMember,
  createPerson,
  deleteAuthSession,
  findPersonById,
  findPersonBySessionHash,
  findPersonByTokenHash,
  findPersonByUsername,
  insertApiToken,
  insertAuthSession,
  listApiTokens,
  listMembers,
  listProjectsOfPerson,
  projectOfResource,
  putMember,
  removeMember,
  revokeApiToken,
  roleIn,
  USERNAME_PATTERN,
  type ApiTokenRow,
  type Member,
  type MemberRole,
  type Person,
  type ResourceKind,
} from './accounts/accounts.ts';
export {
  clearSignInFailures,
  recordSignInFailure,
  signInFailuresIn,
  signInWaitSeconds,
} from './accounts/sign-in-failures.ts';
export {
  readForjaStatus,
  type ForjaProcessStatus,
  type ProcessModel,
  type ForjaStatus,
  type OutboxStatus,
  type SessionQueueStatus,
  type TurnInProgressStatus,
} from './status/forja-status.ts';
export {
  LaneHeldElsewhereError,
  LaneLeaseLostError,
  type LaneLease,
  type LaneLeases,
} from './lanes/lane-leases.ts';
export { createInProcessLaneLeases } from './lanes/in-process-lane-leases.ts';
export { createPostgresLaneLeases } from './lanes/postgres-lane-leases.ts';
export { fenceAppends } from './lanes/fenced-event-log.ts';
export { DEFAULT_LANE_LEASE_SECONDS, readLaneLeaseSettings } from './lanes/lane-lease-settings.ts';
export {
  readProjectArtifactEvents,
  readProjectEvents,
} from './artifacts/project-artifact-events.ts';
export { readQuarantinedInstructions } from './instructions/quarantined-instructions.ts';
export { readProjectArchitecture } from './artifacts/read-project-architecture.ts';
export { readProjectBacklog } from './artifacts/read-project-backlog.ts';
export { readDoneTaskIds } from './artifacts/read-done-tasks.ts';
export { readEarlierSessions } from './artifacts/read-earlier-sessions.ts';
export {
  dropViewSnapshot,
  readViewSnapshot,
  writeViewSnapshot,
  type ViewSnapshotRow,
} from './snapshots/view-snapshots.ts';
