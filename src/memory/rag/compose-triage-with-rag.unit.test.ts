import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSessionEvents } from '../../domain/conversation/test-support/build-session-events.ts';
import { renderRecentWindow } from '../../domain/memory/index.ts';
import { composeTriageWithRag } from './compose-triage-with-rag.ts';
import type { RagHit } from './project-fragment.ts';
import type { RagSearchResult } from './rag-search.ts';

const events = buildSessionEvents(
  's',
  Array.from({ length: 8 }, (_, index) => ({
    type: 'chat.message',
    actor: 'user',
    payload: { v: 1, text: `mensagem ${index}` },
  })),
);
const limits = { recentEvents: events, maxPromptEvents: 6, maxPayloadChars: 80 };
const hit = (index: number, score: number): RagHit => ({
  chunk_id: `c${index}`,
  source_kind: 'artifact',
  source_id: `e${index}`,
  source: `artifact.business_rule #${index}`,
  text: `regra ${index}`,
  score,
});
const answering = (result: RagSearchResult) => async () => result;

describe('composeTriageWithRag', () => {
  const withoutRag = renderRecentWindow(limits).text;

  it('is the window without RAG, byte for byte, when RAG is off, has no query, or finds nothing', async () => {
    expect((await composeTriageWithRag({ ...limits, search: null, query: 'q' })).window.text).toBe(
      withoutRag,
    );
    expect(
      (
        await composeTriageWithRag({
          ...limits,
          search: answering({
            hits: [hit(1, 0.9)],
            degraded: false,
            method: 'hnsw',
            parts: ['fts', 'hnsw'],
          }),
          query: null,
        })
      ).window.text,
    ).toBe(withoutRag);
    const empty = await composeTriageWithRag({
      ...limits,
      search: answering({ hits: [], degraded: false, method: 'hnsw', parts: ['fts', 'hnsw'] }),
      query: 'q',
    });
    expect(empty.window.text).toBe(withoutRag);
    expect(empty.rag).toEqual({ asked: true, hits: 0, degraded: false });
  });

  it('when RAG fails, keeps every event of the window without RAG and says degraded: true with the reason', async () => {
    const failed = await composeTriageWithRag({
      ...limits,
      search: answering({
        hits: [],
        degraded: true,
        reason: 'the embedder failed',
        method: 'exact',
        parts: ['fts', 'exact'],
      }),
      query: 'q',
    });
    expect(failed.window.text).toBe(
      `${withoutRag}\n\n## fragmentos relevantes (rag_search)\ndegraded: true (reason: the embedder failed)`,
    );
    expect(failed.window.events).toEqual(renderRecentWindow(limits).events);
    expect(failed.rag).toEqual({
      asked: true,
      hits: 0,
      degraded: { reason: 'the embedder failed' },
    });
  });

  it('asks for as many hits as there are fragment slots, and they take slots from the oldest events', async () => {
    const asked: number[] = [];
    const triage = await composeTriageWithRag({
      ...limits,
      query: 'q',
      search: async (request) => {
        asked.push(request.k);
        return {
          hits: [hit(1, 0.2), hit(2, 0.9)],
          degraded: false,
          method: 'hnsw',
          parts: ['fts', 'hnsw'],
        };
      },
    });
    expect(asked).toEqual([3]);
    expect(triage.window.events.map((event) => event.seq)).toEqual([5, 6, 7, 8]);
    expect(triage.window.fragments.map((fragment) => fragment.source)).toEqual([
      'artifact.business_rule #2',
      'artifact.business_rule #1',
    ]);
    expect(triage.window.events.length + triage.window.fragments.length).toBe(
      limits.maxPromptEvents,
    );
  });

  it('never shows more items than maxPromptEvents, whatever RAG answers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 12 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 10 }),
        async (maxPromptEvents, scores) => {
          const triage = await composeTriageWithRag({
            recentEvents: events,
            maxPromptEvents,
            maxPayloadChars: 40,
            query: 'q',
            search: answering({
              hits: scores.map((score, index) => hit(index, score)),
              degraded: false,
              method: 'exact',
              parts: ['fts', 'exact'],
            }),
          });
          expect(triage.window.events.length + triage.window.fragments.length).toBeLessThanOrEqual(
            maxPromptEvents,
          );
        },
      ),
    );
  });
});
