export {
  ARCHITECTURE_DOC_PATHS,
  architectureDocFile,
  architectureDocFiles,
} from './docs/architecture-doc-files.ts';
export { createArchitectureDocs, type ArchitectureDocs } from './docs/architecture-docs.ts';
export { MAX_READ_BYTES, readWorktreeFile } from './files/read-worktree-file.ts';
export type { WorktreeRead } from './files/read-worktree-file.ts';
export { readWorkspaceDocuments } from './files/read-workspace-documents.ts';
export type { WorkspaceDocument } from './files/read-workspace-documents.ts';
export { MAX_SEARCH_MATCHES, searchWorktree } from './files/search-worktree.ts';
export type { WorktreeSearch } from './files/search-worktree.ts';
export { MAX_WRITE_BYTES, writeWorktreeFile } from './files/write-worktree-file.ts';
export type { WorktreeWrite } from './files/write-worktree-file.ts';
export { worktreeFiles, type WorktreeFiles } from './files/worktree-files.ts';
export type { RepositoryFile } from './git/commit-files.ts';
export type { WorktreeCommit } from './git/commit-worktree.ts';
export type { WorktreeUpdate } from './git/merge-integration-into-worktree.ts';
export {
  COMMIT_SHA_PATTERN,
  MAX_DIFF_BYTES,
  MAX_DIFF_FILES,
  readCommitDiff,
} from './git/commit-diff.ts';
export type { CommitDiff, CommitDiffFile } from './git/commit-diff.ts';
export { gitAt } from './git/git-at.ts';
export type {
  IntegrationCheck,
  ModuleIntegration,
} from './git/integrate-module.ts';
export type { MainMerge } from './git/merge-into-main.ts';
export type {
  CommittedInstructionFile,
  CommittedInstructionFiles,
} from './git/instruction-files-of.ts';
export type { IntegrationSync } from './git/sync-integration.ts';
export { createProjectWorkspaces } from './project-workspaces.ts';
export type { ModuleWorktree, ProjectWorkspaces } from './project-workspaces.ts';
export { DEFAULT_BUBBLEWRAP_PATH, createTerminalRunner } from './terminal/terminal-runner.ts';
export type {
  SandboxProbe,
  StartedProcess,
  TerminalOutcome,
  TerminalRunner,
} from './terminal/terminal-runner.ts';
export { SANDBOX_TOOLS, type SandboxTool, type SandboxTools } from './terminal/sandbox-tools.ts';
export {
  DEFAULT_TERMINAL_SETTINGS,
  readTerminalSettings,
  terminalSettingsOrDefaults,
} from './terminal/terminal-settings.ts';
export type { TerminalMode, TerminalSettings } from './terminal/terminal-settings.ts';
export {
  DEFAULT_SANDBOX_LIMITS,
  describeLimits,
  limitNotes,
  readSandboxLimits,
} from '../domain/terminal/index.ts';
export type { SandboxLimits } from '../domain/terminal/index.ts';
export { readGitTimeout, setHostGitTimeout } from './git/host-git.ts';
export {
  INTEGRATION_BRANCH,
  MAIN_BRANCH,
  integrationDirectory,
  moduleBranch,
  workspaceDirectory,
  worktreeDirectory,
} from './workspace-layout.ts';
export { HostGitError, runHostGit, streamHostGit } from './git/host-git.ts';
export type { RepositorySource } from './git/import-repository.ts';
export { importWorkspace, type ImportedWorkspace } from './import-workspace.ts';
export {
  createMcpServers,
  type McpServerListing,
  type McpServers,
  type McpServerTool,
} from './mcp/mcp-servers.ts';
export {
  checkPushBranch,
  checkRemoteName,
  credentialVariables,
  pushCredentials,
  pushMain,
  REMOTE_NAME_PATTERN,
  remoteTarget,
  remoteTargetOnDisk,
  type PushOutcome,
  type RemoteRefusal,
  type RemoteTarget,
} from './git/push-main.ts';
export {
  DEFAULT_SURVEY_BUDGETS,
  createRepositorySurveys,
  surveyRepository,
  type RepositorySurvey,
  type SurveyBudgets,
} from './git/survey-repository.ts';
