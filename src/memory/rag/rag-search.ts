import { fuseRankedLists } from '../../domain/memory/index.ts';
import type { Embedder } from './embedder.ts';
import type { RagHit } from './project-fragment.ts';
import type { SearchMethod, SearchPart, VectorIndex } from './vector-index.ts';

export const MAX_RAG_K = 50;

/** Each part of the hybrid search is asked for this many candidates per hit wanted, before fusion. */
const CANDIDATES_PER_HIT = 2;

export interface RagSearchRequest {
  readonly query: string;
  readonly k: number;
}

/**
 * `rag_search`'s answer: hits, how the search ran — `method` (the vector method) and `parts`, the searches that
 * ran and were fused (`fts`, `hnsw`, `exact`) — and, never hidden, whether it was degraded and why. A degraded
 * search has no hits, whichever part failed: the caller behaves exactly as it would without RAG (ADR 0023).
 */
export type RagSearchResult =
  | {
      readonly hits: readonly RagHit[];
      readonly degraded: false;
      readonly method: SearchMethod;
      readonly parts: readonly SearchPart[];
    }
  | {
      readonly hits: readonly [];
      readonly degraded: true;
      readonly reason: string;
      readonly method: SearchMethod;
      readonly parts: readonly SearchPart[];
    };

export interface RagSearchDependencies {
  readonly embedder: Embedder;
  readonly index: VectorIndex;
}

/**
 * `rag_search {query, k}` over one project's fragments, hybrid (decision 0024): PostgreSQL full-text search,
 * which carries inflections and accents ("entregas" finds "Entrega"), and the vector search, which carries
 * whatever the embedder knows (meaning, with a provider's embeddings), merged by reciprocal-rank fusion. A hit's
 * `score` is its fused score. Failures of the embedder or of the index are expected here (RAG is an additive
 * source): they come back as `degraded: true` with the reason, never as an exception.
 */
export async function ragSearch(
  dependencies: RagSearchDependencies,
  projectId: string,
  request: RagSearchRequest,
): Promise<RagSearchResult> {
  const { embedder, index } = dependencies;
  const k = Math.min(Math.max(1, Math.trunc(request.k)), MAX_RAG_K);
  const candidates = k * CANDIDATES_PER_HIT;
  const degraded = (reason: string, parts: readonly SearchPart[]): RagSearchResult => ({
    hits: [],
    degraded: true,
    reason,
    method: index.method,
    parts,
  });

  let vector: number[];
  try {
    const embedded = await embedder.embed([request.query], { projectId });
    if (!embedded.ok)
      return degraded(`the embedder ${embedder.name} failed: ${embedded.reason}`, []);
    vector = embedded.vectors[0] ?? [];
  } catch (error) {
    return degraded(`the embedder ${embedder.name} failed: ${messageOf(error)}`, []);
  }
  const method = index.methodFor(vector.length);
  const hasVector = vector.some((value) => value !== 0);
  const parts: SearchPart[] = hasVector ? ['fts', method] : ['fts'];

  const [text, similar] = await Promise.allSettled([
    index.searchText({ projectId, embedder: embedder.name, text: request.query, k: candidates }),
    hasVector
      ? index.search({ projectId, embedder: embedder.name, vector, k: candidates })
      : Promise.resolve([]),
  ]);
  if (text.status === 'rejected')
    return degraded(`the full-text search failed: ${messageOf(text.reason)}`, parts);
  if (similar.status === 'rejected')
    return degraded(`the vector search (${method}) failed: ${messageOf(similar.reason)}`, parts);

  const fused = fuseRankedLists([text.value, similar.value], (hit) => hit.chunk_id, k);
  return {
    hits: fused.map(({ item, score }) => ({ ...item, score })),
    degraded: false,
    method,
    parts,
  };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
