import type { Embedder } from './embedder.ts';
import type { RagHit } from './project-fragment.ts';
import type { SearchMethod, VectorIndex } from './vector-index.ts';

export const MAX_RAG_K = 50;

export interface RagSearchRequest {
  readonly query: string;
  readonly k: number;
}

/**
 * `rag_search`'s answer: hits with scores, how the search ran, and — never hidden — whether it was degraded
 * and why. A degraded search has no hits; the caller behaves exactly as it would without RAG.
 */
export type RagSearchResult =
  | { readonly hits: readonly RagHit[]; readonly degraded: false; readonly method: SearchMethod }
  | { readonly hits: readonly []; readonly degraded: true; readonly reason: string; readonly method: SearchMethod };

export interface RagSearchDependencies {
  readonly embedder: Embedder;
  readonly index: VectorIndex;
}

/**
 * `rag_search {query, k}` over one project's fragments. Failures of the embedder or of the index are
 * expected here (RAG is an additive source, DESIGN §1.7): they come back as `degraded: true` with the
 * reason, never as an exception. A query with no words finds nothing, which is not a degradation.
 */
export async function ragSearch(dependencies: RagSearchDependencies, projectId: string, request: RagSearchRequest): Promise<RagSearchResult> {
  const { embedder, index } = dependencies;
  const degraded = (reason: string): RagSearchResult => ({ hits: [], degraded: true, reason, method: index.method });
  const k = Math.min(Math.max(1, Math.trunc(request.k)), MAX_RAG_K);
  let vector: number[];
  try {
    const embedded = await embedder.embed([request.query], { projectId });
    if (!embedded.ok) return degraded(`the embedder ${embedder.name} failed: ${embedded.reason}`);
    vector = embedded.vectors[0] ?? [];
  } catch (error) {
    return degraded(`the embedder ${embedder.name} failed: ${messageOf(error)}`);
  }
  const method = index.methodFor(vector.length);
  if (vector.every((value) => value === 0)) return { hits: [], degraded: false, method };
  try {
    const hits = await index.search({ projectId, embedder: embedder.name, vector, k });
    return { hits, degraded: false, method };
  } catch (error) {
    return { hits: [], degraded: true, reason: `the vector search (${method}) failed: ${messageOf(error)}`, method };
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
