import type { EmbeddingGateway } from '../../gateway/index.ts';
import type { Embedder } from './embedder.ts';

/** Provider embeddings through the model gateway, metered against the project's budget as agent `rag`. */
export function createGatewayEmbedder(gateway: EmbeddingGateway): Embedder {
  return {
    name: gateway.model ?? 'gateway:not-configured',
    embed: async (texts, context) => {
      const outcome = await gateway.embed({
        projectId: context.projectId,
        sessionId: null,
        agent: 'rag',
        texts,
      });
      if (outcome.status === 'completed')
        return { ok: true, vectors: outcome.vectors.map(normalise) };
      return { ok: false, reason: outcome.message };
    },
  };
}

/** Stored and searched vectors are unit length, so cosine similarity is a dot product. */
function normalise(vector: number[]): number[] {
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((value) => value / norm);
}
