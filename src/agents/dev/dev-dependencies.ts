import type { Database } from '../../store/index.ts';
import type {
  McpServers,
  ProjectWorkspaces,
  TerminalRunner,
  WorktreeFiles,
} from '../../workspace/index.ts';
import type { PromptSources } from '../runtime/build-system-prompt.ts';
import type { DevProjectSearch } from './rag-tools.ts';

/** What a dev agent is given: its worktree comes from the workspaces, its commands run through `terminal`. */
export interface DevDependencies {
  prompts: PromptSources;
  database: Database;
  workspaces: ProjectWorkspaces;
  terminal: TerminalRunner;
  /** Confined reads, searches and writes in the worktree (`worktreeFiles`). */
  files: WorktreeFiles;
  /** The project search behind `rag_search` (the memory's hybrid search). */
  ragSearch: DevProjectSearch;
  /** The project's MCP servers, run in the dev's sandbox (ADR 0410); unset, a project's servers are not offered. */
  mcp?: McpServers;
}
