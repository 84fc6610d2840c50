import { describe, expect, it } from 'vitest';
import type { Embedder } from './embedder.ts';
import type { RagHit } from './project-fragment.ts';
import { ragSearch } from './rag-search.ts';
import type { VectorIndex } from './vector-index.ts';

const rule: RagHit = {
  chunk_id: 'e1#0',
  source_kind: 'artifact',
  source_id: 'e1',
  source: 'artifact.business_rule #3',
  text: 'Entrega antes das 6h',
  score: 0.8,
};
const doc: RagHit = {
  chunk_id: 'doc#0',
  source_kind: 'doc',
  source_id: 'doc:docs/x.md',
  source: 'docs/x.md',
  text: 'Entregas',
  score: 0.5,
};
const embedder = (outcome: Awaited<ReturnType<Embedder['embed']>> | Error): Embedder => ({
  name: 'fake',
  embed: async () => {
    if (outcome instanceof Error) throw outcome;
    return outcome;
  },
});
const index = (
  vectorHits: RagHit[] | Error,
  textHits: RagHit[] | Error = [],
  seen: Array<{ part: string; k: number }> = [],
): VectorIndex => ({
  method: 'exact',
  methodFor: () => 'exact',
  upsert: async () => undefined,
  removeSource: async () => undefined,
  searchText: async (query) => {
    seen.push({ part: 'fts', k: query.k });
    if (textHits instanceof Error) throw textHits;
    return textHits;
  },
  search: async (query) => {
    seen.push({ part: 'vector', k: query.k });
    if (vectorHits instanceof Error) throw vectorHits;
    return vectorHits;
  },
});
const vector = { ok: true as const, vectors: [[1, 0]] };

describe('ragSearch', () => {
  it('fuses the full-text and the vector hits by rank, says which parts ran, and caps k', async () => {
    const seen: Array<{ part: string; k: number }> = [];
    const result = await ragSearch(
      { embedder: embedder(vector), index: index([doc, rule], [rule], seen) },
      'p',
      { query: 'entrega', k: 500 },
    );
    expect(result).toMatchObject({ degraded: false, method: 'exact', parts: ['fts', 'exact'] });
    expect(result.hits.map((hit) => hit.chunk_id)).toEqual(['e1#0', 'doc#0']);
    expect(result.hits[0]!.score).toBeCloseTo(1 / 61 + 1 / 62);
    expect(seen).toEqual([
      { part: 'fts', k: 100 },
      { part: 'vector', k: 100 },
    ]);
  });

  it('is degraded, with the reason and no hits, when the embedder refuses or throws, or a search fails', async () => {
    expect(
      await ragSearch(
        { embedder: embedder({ ok: false, reason: 'budget exceeded' }), index: index([rule]) },
        'p',
        { query: 'q', k: 3 },
      ),
    ).toEqual({
      hits: [],
      degraded: true,
      reason: 'the embedder fake failed: budget exceeded',
      method: 'exact',
      parts: [],
    });
    expect(
      await ragSearch(
        { embedder: embedder(new Error('socket hang up')), index: index([rule]) },
        'p',
        { query: 'q', k: 3 },
      ),
    ).toMatchObject({ degraded: true, reason: 'the embedder fake failed: socket hang up' });
    expect(
      await ragSearch(
        {
          embedder: embedder(vector),
          index: index(new Error('relation "rag.chunks" does not exist'), [rule]),
        },
        'p',
        { query: 'q', k: 3 },
      ),
    ).toMatchObject({
      hits: [],
      degraded: true,
      reason: 'the vector search (exact) failed: relation "rag.chunks" does not exist',
    });
    expect(
      await ragSearch(
        {
          embedder: embedder(vector),
          index: index([rule], new Error('function rag.fold_accents does not exist')),
        },
        'p',
        { query: 'q', k: 3 },
      ),
    ).toMatchObject({
      hits: [],
      degraded: true,
      reason: 'the full-text search failed: function rag.fold_accents does not exist',
    });
  });

  it('runs the full-text search alone for a query the embedder sees no words in', async () => {
    expect(
      await ragSearch(
        { embedder: embedder({ ok: true, vectors: [[0, 0]] }), index: index([doc], [rule]) },
        'p',
        { query: '6h', k: 3 },
      ),
    ).toEqual({
      hits: [{ ...rule, score: 1 / 61 }],
      degraded: false,
      method: 'exact',
      parts: ['fts'],
    });
  });
});
