import type { Queryable } from '../../store/index.ts';
import type { IndexedChunk, RagHit } from './project-fragment.ts';

/**
 * How a search ran: `hnsw` — approximate, pgvector's HNSW index; `lsh` — approximate without any extension:
 * candidates by the Hamming distance of 256-bit random-hyperplane signatures, ranked by the exact dot product;
 * `exact` — every chunk of the project scored. Reported with every search result.
 */
export type SearchMethod = 'hnsw' | 'lsh' | 'exact';

/** The parts of a hybrid search: PostgreSQL full-text search and one of the vector methods. */
export type SearchPart = 'fts' | SearchMethod;

/** The vector search port: one contract suite holds both methods to the same behaviour. */
export interface VectorIndex {
  readonly method: SearchMethod;
  /** How a search of vectors of this dimension runs (HNSW only fits the indexed dimension). */
  methodFor(dimension: number): SearchMethod;
  /** Writes chunks idempotently by id; `within` is the caller's transaction (outbox drain), else the database. */
  upsert(chunks: readonly IndexedChunk[], within?: Queryable): Promise<void>;
  /** Removes a source's chunks (a document that changed), within the caller's transaction when given. */
  removeSource(projectId: string, sourceId: string, within?: Queryable): Promise<void>;
  /**
   * The `k` chunks of the project and embedder that share the most stems with the text (full-text search in
   * each chunk's language, accents folded), best first; scores are `ts_rank_cd`, comparable only among themselves.
   */
  searchText(query: {
    projectId: string;
    embedder: string;
    text: string;
    k: number;
  }): Promise<RagHit[]>;
  /** The `k` chunks of the project and embedder most similar to the unit vector, best first. */
  search(query: {
    projectId: string;
    embedder: string;
    vector: readonly number[];
    k: number;
  }): Promise<RagHit[]>;
}
