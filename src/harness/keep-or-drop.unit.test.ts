import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateTokenizer } from './estimate-tokenizer.ts';
import { keepOrDrop } from './keep-or-drop.ts';

const header = '## identidade\n';

describe('keepOrDrop', () => {
  it('keeps the whole identity when it fits', () => {
    expect(keepOrDrop(header, 'Você é o PO.', 100, estimateTokenizer)).toEqual({
      status: 'kept',
      content: `${header}Você é o PO.`,
      tokens: 7,
      estimated: true,
    });
  });

  it('drops all of it when one token is missing', () => {
    const text = 'Você é o PO.';
    const needed = estimateTokenizer.count(header + text).tokens;
    expect(keepOrDrop(header, text, needed, estimateTokenizer).status).toBe('kept');
    expect(keepOrDrop(header, text, needed - 1, estimateTokenizer)).toEqual({
      status: 'dropped',
      content: '',
      tokens: 0,
      estimated: true,
    });
  });

  it('is all or nothing for any text and budget', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1 }), fc.nat(100), (text, budget) => {
        const outcome = keepOrDrop(header, text, budget, estimateTokenizer);
        expect([`${header}${text}`, '']).toContain(outcome.content);
        expect(outcome.tokens).toBeLessThanOrEqual(budget);
      }),
    );
  });
});
