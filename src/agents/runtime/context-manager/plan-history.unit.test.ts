import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatHistoryEntry } from '../../../domain/conversation/index.ts';
import { estimateTokenizer } from '../../../harness/index.ts';
import { compactionSplit, sumTokens, windowStart } from './plan-history.ts';
import { renderHistoryEntry, type RenderedEntry } from './render-history-entry.ts';

/** A history of turns: a user message, an assistant answer, sometimes a tool call and its result. */
const historyArbitrary = fc
  .array(fc.record({ words: fc.integer({ min: 1, max: 80 }), tool: fc.boolean() }), {
    minLength: 1,
    maxLength: 40,
  })
  .map((turns) => {
    const entries: ChatHistoryEntry[] = [];
    let seq = 1;
    for (const turn of turns) {
      entries.push({
        role: 'user',
        to: null,
        content: 'palavra '.repeat(turn.words),
        seq: seq++,
        event_id: `e${seq}`,
      });
      if (turn.tool) {
        entries.push({
          role: 'assistant',
          agent: 'a',
          content: '',
          tool_calls: [{ id: `c${seq}`, name: 'read', arguments: {} }],
          seq: seq++,
          event_id: `e${seq}`,
        });
        entries.push({
          role: 'tool',
          agent: 'a',
          tool_call_id: `c${seq - 1}`,
          tool: 'read',
          args: {},
          ok: true,
          content: 'resultado '.repeat(turn.words),
          seq: seq++,
          event_id: `e${seq}`,
        });
      }
      entries.push({
        role: 'assistant',
        agent: 'a',
        content: 'ok',
        seq: seq++,
        event_id: `e${seq}`,
      });
    }
    return entries.map(
      (entry): RenderedEntry => renderHistoryEntry(entry, 10_000, estimateTokenizer),
    );
  });

/** Stated apart from the code under test: a history may not start with a tool result (its call would be missing). */
const isCleanStart = (rendered: readonly RenderedEntry[], index: number) =>
  rendered[index]?.entry.role !== 'tool';

describe('what part of a history is sent', () => {
  it('a window fits its budget and never starts with a tool result', () => {
    fc.assert(
      fc.property(historyArbitrary, fc.integer({ min: 0, max: 3000 }), (rendered, budget) => {
        const start = windowStart(rendered, budget);
        expect(isCleanStart(rendered, start)).toBe(true);
        expect(sumTokens(rendered, start)).toBeLessThanOrEqual(budget);
        // The window is the longest such run: one more clean-started entry would not fit.
        const earlier = rendered.findLastIndex(
          (_, index) => index < start && isCleanStart(rendered, index),
        );
        if (earlier >= 0) expect(sumTokens(rendered, earlier)).toBeGreaterThan(budget);
      }),
    );
  });

  it('a compaction keeps a clean-started recent run within its share, or at least the last run', () => {
    fc.assert(
      fc.property(historyArbitrary, fc.integer({ min: 1, max: 3000 }), (rendered, keep) => {
        const split = compactionSplit(rendered, keep);
        expect(isCleanStart(rendered, split)).toBe(true);
        expect(split).toBeLessThan(rendered.length);
        const lastClean = rendered.findLastIndex((_, index) => isCleanStart(rendered, index));
        if (split !== lastClean && split !== 0)
          expect(sumTokens(rendered, split)).toBeLessThanOrEqual(keep);
      }),
    );
  });

  it('cuts a long text to its cap with a marker naming the event, and leaves a short one alone', () => {
    const long: ChatHistoryEntry = {
      role: 'tool',
      agent: 'a',
      tool_call_id: 'c',
      tool: 'read',
      args: {},
      ok: true,
      content: 'x'.repeat(100_000),
      seq: 7,
      event_id: 'e7',
    };
    const cut = renderHistoryEntry(long, 500, estimateTokenizer);
    expect(cut.tokens).toBeLessThanOrEqual(520);
    expect(cut.message.content).toMatch(
      /\[… \d+ de 100000 caracteres omitidos aqui; o texto completo está no evento #7 …\]$/,
    );
    expect(cut.capped).toBe(100_000 - cut.message.content.indexOf('\n['));
    const short = renderHistoryEntry({ ...long, content: 'curto' }, 500, estimateTokenizer);
    expect(short).toMatchObject({ capped: 0, message: { role: 'tool', content: 'curto' } });
  });
});
