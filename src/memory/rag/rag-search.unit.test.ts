import { describe, expect, it } from 'vitest';
import type { Embedder } from './embedder.ts';
import type { RagHit } from './project-fragment.ts';
import { ragSearch } from './rag-search.ts';
import type { VectorIndex } from './vector-index.ts';

const hit: RagHit = { chunk_id: 'e1#0', source_kind: 'artifact', source_id: 'e1', source: 'artifact.business_rule #3', text: 'Entrega antes das 6h', score: 0.8 };
const embedder = (outcome: Awaited<ReturnType<Embedder['embed']>> | Error): Embedder => ({
  name: 'fake',
  embed: async () => {
    if (outcome instanceof Error) throw outcome;
    return outcome;
  },
});
const index = (hits: RagHit[] | Error, seen: Array<{ k: number }> = []): VectorIndex => ({
  method: 'exact',
  methodFor: () => 'exact',
  upsert: async () => undefined,
  removeSource: async () => undefined,
  search: async (query) => {
    seen.push({ k: query.k });
    if (hits instanceof Error) throw hits;
    return hits;
  },
});

describe('ragSearch', () => {
  it('returns the hits, how the search ran, and degraded: false', async () => {
    const seen: Array<{ k: number }> = [];
    expect(await ragSearch({ embedder: embedder({ ok: true, vectors: [[1, 0]] }), index: index([hit], seen) }, 'p', { query: 'entrega', k: 500 })).toEqual({ hits: [hit], degraded: false, method: 'exact' });
    expect(seen).toEqual([{ k: 50 }]);
  });

  it('is degraded, with the reason, when the embedder refuses or throws, or the index fails', async () => {
    const vector = { ok: true as const, vectors: [[1, 0]] };
    expect(await ragSearch({ embedder: embedder({ ok: false, reason: 'budget exceeded' }), index: index([hit]) }, 'p', { query: 'q', k: 3 })).toEqual({
      hits: [],
      degraded: true,
      reason: 'the embedder fake failed: budget exceeded',
      method: 'exact',
    });
    expect(await ragSearch({ embedder: embedder(new Error('socket hang up')), index: index([hit]) }, 'p', { query: 'q', k: 3 })).toMatchObject({ degraded: true, reason: 'the embedder fake failed: socket hang up' });
    expect(await ragSearch({ embedder: embedder(vector), index: index(new Error('relation "rag.chunks" does not exist')) }, 'p', { query: 'q', k: 3 })).toMatchObject({
      hits: [],
      degraded: true,
      reason: 'the vector search (exact) failed: relation "rag.chunks" does not exist',
    });
  });

  it('finds nothing, without degradation, for a query with no words', async () => {
    expect(await ragSearch({ embedder: embedder({ ok: true, vectors: [[0, 0]] }), index: index([hit]) }, 'p', { query: '...', k: 3 })).toEqual({ hits: [], degraded: false, method: 'exact' });
  });
});
