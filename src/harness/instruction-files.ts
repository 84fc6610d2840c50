import path from 'node:path';
import {
  discoverInstructionFiles,
  type DiscoveredInstructionFiles,
  type DiscoveryMethod,
} from './discover-instruction-files.ts';
import { isStillFresh } from './instruction-freshness.ts';
import {
  DB_INSTRUCTIONS_ID,
  GRAPH_INSTRUCTIONS_ID,
  type GraphInstructionTemplateSource,
  type InstructionPatchSource,
  type InstructionSkip,
  type InstructionSource,
} from './instruction-sources.ts';
import { governedDirectory, isWithinDirectory } from './order-instruction-paths.ts';

/** Graph templates change under a running server (the seeder writes them); 30 s bounds how stale one can be. */
export const DEFAULT_GRAPH_TTL_MS = 30_000;

/** The id of the patch stored for an agent's family (`dev`) when the agent is one of it (`dev:<module>`). */
export const FAMILY_DB_INSTRUCTIONS_ID = `${DB_INSTRUCTIONS_ID}:family`;

/** Feature flags the loader reads on every load, so a live flags object takes effect without a restart. */
export interface InstructionFlags {
  readonly graph_instruction_templates_enabled: boolean;
}

export interface InstructionFilesOptions {
  readonly patchSource?: InstructionPatchSource;
  readonly graphTemplateSource?: GraphInstructionTemplateSource;
  readonly flags: InstructionFlags;
  /** Milliseconds; graph entries expire, and `refreshed_at` is read from it. */
  readonly clock: () => number;
  readonly graphTtlMs?: number;
  /** Replaces the discovery, e.g. to count discoveries in a test. Without a freshness basis, kept until invalidated. */
  readonly discover?: (workspaceDir: string) => Promise<DiscoveredInstructionFiles>;
}

export interface InstructionLoadRequest {
  readonly workspaceDir: string;
  readonly projectId?: string;
  /** The agent slug; `dev:<module>` reads the patch of `dev` and then its own. */
  readonly agent: string;
  /**
   * The directory the agent works in, relative to the workspace ('' for the root): it gets the files on
   * the path from the root to there, and the global ones. Absent: the root file and the global ones.
   */
  readonly scope?: string;
}

/** Sources in ascending priority (root, deeper dirs, graph, db: last wins) and the named skips. */
export interface LoadedInstructions {
  readonly sources: readonly InstructionSource[];
  readonly skipped: readonly InstructionSkip[];
  /** When the workspace's files were last read (clock ms): a load served from the cache keeps the older time. */
  readonly refreshedAtMs?: number;
  readonly method?: DiscoveryMethod;
}

/** Which cached entries to drop; a field left out matches every value. `{}` drops everything. */
export interface InstructionInvalidation {
  readonly workspaceDir?: string;
  readonly projectId?: string;
  readonly agent?: string;
}

export interface InstructionFiles {
  load(request: InstructionLoadRequest): Promise<LoadedInstructions>;
  /** Drops matching cache entries and returns how many; the next load reads the sources again. */
  invalidate(filter?: InstructionInvalidation): number;
}

interface GraphRead {
  readonly source: InstructionSource | null;
  readonly skip: InstructionSkip | null;
}

interface WorkspaceEntry {
  readonly read: Promise<DiscoveredInstructionFiles>;
  settled?: { readonly files: DiscoveredInstructionFiles; readonly refreshedAtMs: number };
}

interface PatchEntry {
  readonly projectId: string;
  readonly agent: string;
  readonly read: Promise<string | null>;
}

/** The slug whose graph template and family patch an agent shares: `dev` for `dev:<module>`. */
export function agentFamily(agent: string): string {
  const colon = agent.indexOf(':');
  return colon === -1 ? agent : agent.slice(0, colon);
}

/**
 * A workspace-relative directory as a scope: POSIX separators, no `.`/`..` segments, no leading or trailing
 * slash; '' is the root.
 * @throws Error naming the rule when it is absolute or leaves the workspace.
 */
export function normalizeScope(scope: string): string {
  const posix = scope.replaceAll('\\', '/');
  if (posix.startsWith('/')) throw new Error(`scope '${scope}': must be relative to the workspace`);
  const parts: string[] = [];
  for (const part of posix.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') throw new Error(`scope '${scope}': must not leave the workspace ('..')`);
    parts.push(part);
  }
  return parts.join('/');
}

/** The files a load scoped to `scope` gets (see InstructionLoadRequest.scope), in the order given. */
export function selectForScope(
  sources: readonly InstructionSource[],
  scope: string | undefined,
): InstructionSource[] {
  return sources.filter((source) => {
    const directory = source.directory ?? governedDirectory(source.id);
    const global = source.global ?? directory === '';
    return global || (scope !== undefined && isWithinDirectory(scope, directory));
  });
}

// The graph is an additive source: its failure leaves the other sources exactly as they were, and is named.
async function readGraph(
  source: GraphInstructionTemplateSource,
  agent: string,
): Promise<GraphRead> {
  try {
    const content = await source.readInstructionTemplate(agent);
    if (content === null) return { source: null, skip: null };
    return { source: { id: GRAPH_INSTRUCTIONS_ID, content, priority_kind: 'graph' }, skip: null };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return {
      source: null,
      skip: { path: GRAPH_INSTRUCTIONS_ID, reason: 'graph_source_failed', detail },
    };
  }
}

/**
 * The InstructionFiles loader: workspace instruction files (scoped per load, see InstructionLoadRequest),
 * the graph template (only with `graph_instruction_templates_enabled`) and the database patches. The files
 * of a workspace are read once and kept; every load first checks that they still hold (a few hundred
 * `stat` calls, see isStillFresh) and reads them again when not, so an edited, added or removed file shows
 * on the next turn without a watcher. Patches are kept per (project, agent) until `invalidate`; graph
 * entries live with a TTL, failures included, so a graph that is down is not asked again on every load. A
 * failing patch source rejects the load (the patch is not additive) and is not cached.
 */
export function createInstructionFiles(options: InstructionFilesOptions): InstructionFiles {
  const workspaces = new Map<string, WorkspaceEntry>();
  const patches = new Map<string, PatchEntry>();
  const graphs = new Map<
    string,
    { readonly expiresAtMs: number; readonly read: Promise<GraphRead> }
  >();
  const discover =
    options.discover ?? ((workspaceDir: string) => discoverInstructionFiles(workspaceDir));
  const graphTtlMs = options.graphTtlMs ?? DEFAULT_GRAPH_TTL_MS;

  function readWorkspace(workspaceDir: string): WorkspaceEntry {
    const entry: WorkspaceEntry = { read: discover(workspaceDir) };
    workspaces.set(workspaceDir, entry);
    entry.read.then(
      (files) => (entry.settled = { files, refreshedAtMs: options.clock() }),
      // A failed read is not kept: the next load tries again. Only this entry, if still cached, is dropped.
      () => workspaces.get(workspaceDir) === entry && workspaces.delete(workspaceDir),
    );
    return entry;
  }

  function workspaceFiles(workspaceDir: string, scope: string | undefined): WorkspaceEntry {
    const cached = workspaces.get(workspaceDir);
    if (cached === undefined) return readWorkspace(workspaceDir);
    const basis = cached.settled?.files.freshness;
    if (basis !== undefined && !isStillFresh(basis, scope ?? ''))
      return readWorkspace(workspaceDir);
    return cached;
  }

  function patchFor(projectId: string, agent: string): Promise<string | null> {
    const key = JSON.stringify([projectId, agent]);
    const cached = patches.get(key);
    if (cached !== undefined) return cached.read;
    const source = options.patchSource;
    const read = source === undefined ? Promise.resolve(null) : source.readPatch(projectId, agent);
    const entry = { projectId, agent, read };
    patches.set(key, entry);
    read.catch(() => patches.get(key) === entry && patches.delete(key));
    return read;
  }

  async function readPatches(
    projectId: string | null,
    agent: string,
  ): Promise<InstructionSource[]> {
    if (projectId === null || options.patchSource === undefined) return [];
    const family = agentFamily(agent);
    const [familyPatch, ownPatch] = await Promise.all([
      family === agent ? null : patchFor(projectId, family),
      patchFor(projectId, agent),
    ]);
    return [
      ...(familyPatch === null
        ? []
        : [{ id: FAMILY_DB_INSTRUCTIONS_ID, content: familyPatch, priority_kind: 'db' as const }]),
      ...(ownPatch === null
        ? []
        : [{ id: DB_INSTRUCTIONS_ID, content: ownPatch, priority_kind: 'db' as const }]),
    ];
  }

  function graphFor(agent: string): Promise<GraphRead> | undefined {
    const source = options.flags.graph_instruction_templates_enabled
      ? options.graphTemplateSource
      : undefined;
    if (source === undefined) return undefined;
    const family = agentFamily(agent);
    const cached = graphs.get(family);
    if (cached !== undefined && options.clock() < cached.expiresAtMs) return cached.read;
    const entry = { expiresAtMs: options.clock() + graphTtlMs, read: readGraph(source, family) };
    graphs.set(family, entry);
    return entry.read;
  }

  async function load(request: InstructionLoadRequest): Promise<LoadedInstructions> {
    const workspaceDir = path.resolve(request.workspaceDir);
    const scope = request.scope === undefined ? undefined : normalizeScope(request.scope);
    const entry = workspaceFiles(workspaceDir, scope);
    const [files, patchSources, graph] = await Promise.all([
      entry.read,
      readPatches(request.projectId ?? null, request.agent),
      graphFor(request.agent),
    ]);
    return {
      sources: [
        ...selectForScope(files.sources, scope),
        ...(graph?.source ? [graph.source] : []),
        ...patchSources,
      ],
      skipped: [...files.skipped, ...(graph?.skip ? [graph.skip] : [])],
      refreshedAtMs: entry.settled?.refreshedAtMs ?? options.clock(),
      ...(files.method === undefined ? {} : { method: files.method }),
    };
  }

  function invalidate(filter: InstructionInvalidation = {}): number {
    let removed = 0;
    const everyField = filter.projectId === undefined && filter.agent === undefined;
    if (everyField) {
      for (const workspaceDir of [...workspaces.keys()]) {
        if (filter.workspaceDir === undefined || workspaceDir === path.resolve(filter.workspaceDir))
          removed += workspaces.delete(workspaceDir) ? 1 : 0;
      }
    }
    if (filter.workspaceDir === undefined) {
      for (const [key, entry] of [...patches]) {
        const matches =
          (filter.projectId === undefined || entry.projectId === filter.projectId) &&
          (filter.agent === undefined || entry.agent === filter.agent);
        if (matches) removed += patches.delete(key) ? 1 : 0;
      }
      if (everyField) graphs.clear();
    }
    return removed;
  }

  return { load, invalidate };
}
