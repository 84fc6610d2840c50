/** What an embedder answers: one vector per text, or why it could not (an expected outcome, not a throw). */
export type EmbedOutcome =
  | { readonly ok: true; readonly vectors: number[][] }
  | { readonly ok: false; readonly reason: string };

/**
 * The RAG embedder port. `name` is stored with every chunk, so a search compares only vectors of the same
 * embedder; changing embedders means `forja rag rebuild`.
 */
export interface Embedder {
  readonly name: string;
  embed(texts: readonly string[], context: { readonly projectId: string }): Promise<EmbedOutcome>;
}
