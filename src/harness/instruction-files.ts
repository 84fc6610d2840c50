import path from 'node:path';
import { discoverInstructionFiles, type DiscoveredInstructionFiles } from './discover-instruction-files.ts';
import {
  DB_INSTRUCTIONS_ID,
  GRAPH_INSTRUCTIONS_ID,
  type GraphInstructionTemplateSource,
  type InstructionPatchSource,
  type InstructionSkip,
  type InstructionSource,
} from './instruction-sources.ts';

/** Graph templates change under a running server (the seeder writes them); 30 s bounds how stale one can be. */
export const DEFAULT_GRAPH_TTL_MS = 30_000;

/** Feature flags the loader reads on every load, so a live flags object takes effect without a restart. */
export interface InstructionFlags {
  readonly graph_instruction_templates_enabled: boolean;
}

export interface InstructionFilesOptions {
  readonly patchSource?: InstructionPatchSource;
  readonly graphTemplateSource?: GraphInstructionTemplateSource;
  readonly flags: InstructionFlags;
  /** Milliseconds; only graph entries expire. */
  readonly clock: () => number;
  readonly graphTtlMs?: number;
  /** Replaces the file walk, e.g. to count walks in a test. */
  readonly discover?: (workspaceDir: string) => Promise<DiscoveredInstructionFiles>;
}

export interface InstructionLoadRequest {
  readonly workspaceDir: string;
  readonly projectId?: string;
  readonly agent: string;
}

/** Sources in ascending priority (root, deeper dirs, graph, db: last wins) and the named skips. */
export interface LoadedInstructions {
  readonly sources: readonly InstructionSource[];
  readonly skipped: readonly InstructionSkip[];
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

interface CacheEntry {
  readonly workspaceDir: string;
  readonly projectId: string | null;
  readonly agent: string;
  readonly stable: Promise<{ readonly files: DiscoveredInstructionFiles; readonly patch: InstructionSource | null }>;
  graph?: { readonly expiresAtMs: number; readonly read: Promise<GraphRead> };
}

async function readPatch(options: InstructionFilesOptions, projectId: string | null, agent: string) {
  if (projectId === null || options.patchSource === undefined) return null;
  const content = await options.patchSource.readPatch(projectId, agent);
  return content === null ? null : { id: DB_INSTRUCTIONS_ID, content, priority_kind: 'db' as const };
}

// The graph is an additive source: its failure leaves the other sources exactly as they were, and is named.
async function readGraph(source: GraphInstructionTemplateSource, agent: string): Promise<GraphRead> {
  try {
    const content = await source.readInstructionTemplate(agent);
    if (content === null) return { source: null, skip: null };
    return { source: { id: GRAPH_INSTRUCTIONS_ID, content, priority_kind: 'graph' }, skip: null };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { source: null, skip: { path: GRAPH_INSTRUCTIONS_ID, reason: 'graph_source_failed', detail } };
  }
}

function matches(entry: CacheEntry, filter: InstructionInvalidation): boolean {
  return (
    (filter.workspaceDir === undefined || entry.workspaceDir === path.resolve(filter.workspaceDir)) &&
    (filter.projectId === undefined || entry.projectId === filter.projectId) &&
    (filter.agent === undefined || entry.agent === filter.agent)
  );
}

/**
 * The InstructionFiles loader: workspace `AGENTS.md` files, the graph template (only with
 * `graph_instruction_templates_enabled`) and the database patch, cached per (workspace, project, agent)
 * until `invalidate`; no file watching. Graph entries live in the same cache with a TTL, failures included,
 * so a graph that is down is not asked again on every load. A failing patch source rejects the load (the
 * patch is not additive) and is not cached.
 */
export function createInstructionFiles(options: InstructionFilesOptions): InstructionFiles {
  const cache = new Map<string, CacheEntry>();
  const discover = options.discover ?? ((workspaceDir: string) => discoverInstructionFiles(workspaceDir));
  const graphTtlMs = options.graphTtlMs ?? DEFAULT_GRAPH_TTL_MS;

  function entryFor(request: InstructionLoadRequest): CacheEntry {
    const workspaceDir = path.resolve(request.workspaceDir);
    const projectId = request.projectId ?? null;
    const key = JSON.stringify([workspaceDir, projectId, request.agent]);
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    const stable = Promise.all([discover(workspaceDir), readPatch(options, projectId, request.agent)]).then(
      ([files, patch]) => ({ files, patch }),
    );
    const entry: CacheEntry = { workspaceDir, projectId, agent: request.agent, stable };
    cache.set(key, entry);
    // A failed read is not kept: the next load tries again. Only this entry, if still cached, is dropped.
    stable.catch(() => cache.get(key) === entry && cache.delete(key));
    return entry;
  }

  async function load(request: InstructionLoadRequest): Promise<LoadedInstructions> {
    const entry = entryFor(request);
    const graphSource = options.flags.graph_instruction_templates_enabled ? options.graphTemplateSource : undefined;
    if (graphSource !== undefined && (entry.graph === undefined || options.clock() >= entry.graph.expiresAtMs)) {
      entry.graph = { expiresAtMs: options.clock() + graphTtlMs, read: readGraph(graphSource, request.agent) };
    }
    const [{ files, patch }, graph] = await Promise.all([entry.stable, graphSource ? entry.graph?.read : undefined]);
    return {
      sources: [...files.sources, ...(graph?.source ? [graph.source] : []), ...(patch ? [patch] : [])],
      skipped: [...files.skipped, ...(graph?.skip ? [graph.skip] : [])],
    };
  }

  function invalidate(filter: InstructionInvalidation = {}): number {
    let removed = 0;
    for (const [key, entry] of cache) {
      if (matches(entry, filter)) removed += cache.delete(key) ? 1 : 0;
    }
    return removed;
  }

  return { load, invalidate };
}
