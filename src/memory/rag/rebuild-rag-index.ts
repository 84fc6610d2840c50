import type { Database } from '../../store/index.ts';
import { ARTIFACT_EVENT_PREFIX } from '../../domain/conversation/event-types.ts';
import { loadProjectedEventsPage } from '../projection/load-projected-events.ts';
import { chunkFragments } from './chunk-fragments.ts';
import type { Embedder } from './embedder.ts';
import { fragmentOfEvent } from './fragments-of-event.ts';
import type { IndexedChunk, ProjectFragment } from './project-fragment.ts';
import type { VectorIndex } from './vector-index.ts';

const PAGE_SIZE = 500;

/** A project's documents (path relative to its workspace, and content), e.g. `docs/**\/*.md`. */
export type ReadProjectDocuments = (
  projectId: string,
) => Promise<ReadonlyArray<{ path: string; content: string }>>;

export type RagRebuildOutcome =
  | { ok: true; fragments: number; chunks: number }
  | { ok: false; reason: string };

/**
 * `forja rag rebuild`: embeds every artifact and agent response of the log, and each project's documents,
 * then replaces the whole index in one transaction (the old index serves until the new one is ready).
 * Needed after changing the embedder.
 */
export async function rebuildRagIndex(
  database: Database,
  dependencies: { embedder: Embedder; index: VectorIndex; readDocuments?: ReadProjectDocuments },
): Promise<RagRebuildOutcome> {
  const byProject = new Map<string, ProjectFragment[]>();
  const add = (fragment: ProjectFragment) =>
    byProject.set(fragment.projectId, [...(byProject.get(fragment.projectId) ?? []), fragment]);
  let after: { sessionId: string; seq: number } | null = null;
  for (;;) {
    const page = await loadProjectedEventsPage(
      database,
      { types: ['agent.response'], prefixes: [ARTIFACT_EVENT_PREFIX] },
      after,
      PAGE_SIZE,
    );
    for (const event of page) {
      const fragment = fragmentOfEvent(event);
      if (fragment !== null) add(fragment);
    }
    const last = page.at(-1);
    if (last === undefined || page.length < PAGE_SIZE) break;
    after = { sessionId: last.session_id, seq: last.seq };
  }
  if (dependencies.readDocuments !== undefined) {
    const projects = await database.query<{ id: string }>('select id from projects order by id');
    for (const { id } of projects.rows) {
      for (const document of await dependencies.readDocuments(id))
        add({
          projectId: id,
          sourceKind: 'doc',
          sourceId: `doc:${document.path}`,
          sourceLabel: document.path,
          text: document.content,
        });
    }
  }
  const chunks: IndexedChunk[] = [];
  let fragments = 0;
  for (const [projectId, projectFragments] of byProject) {
    const outcome = await chunkFragments(dependencies.embedder, projectId, projectFragments);
    if (!outcome.ok)
      return {
        ok: false,
        reason: `embedding the fragments of project ${projectId} failed: ${outcome.reason}`,
      };
    chunks.push(...outcome.chunks);
    fragments += projectFragments.length;
  }
  await database.transaction(async (transaction) => {
    await transaction.query('delete from rag.chunks');
    for (let at = 0; at < chunks.length; at += PAGE_SIZE)
      await dependencies.index.upsert(chunks.slice(at, at + PAGE_SIZE), transaction);
  });
  return { ok: true, fragments, chunks: chunks.length };
}
