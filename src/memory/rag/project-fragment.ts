/** What the RAG index knows a fragment by. */
export type FragmentSourceKind = 'artifact' | 'agent_response' | 'doc';

/** A piece of the project worth finding again: an artifact, an agent's response, a document. */
export interface ProjectFragment {
  readonly projectId: string;
  readonly sourceKind: FragmentSourceKind;
  /** The event id, or `doc:<path>` for a document. */
  readonly sourceId: string;
  /** How the fragment is shown to a model: `artifact.business_rule #9`, `docs/architecture.md`. */
  readonly sourceLabel: string;
  readonly text: string;
}

/** One chunk of a fragment with its embedding, as the index stores it. */
export interface IndexedChunk {
  readonly id: string;
  readonly projectId: string;
  readonly sourceKind: FragmentSourceKind;
  readonly sourceId: string;
  readonly sourceLabel: string;
  readonly chunkIndex: number;
  readonly text: string;
  readonly embedder: string;
  readonly embedding: readonly number[];
}

/** One `rag_search` hit: the chunk and its cosine similarity to the query (1 is identical). */
export interface RagHit {
  readonly chunk_id: string;
  readonly source_kind: FragmentSourceKind;
  readonly source_id: string;
  readonly source: string;
  readonly text: string;
  readonly score: number;
}
