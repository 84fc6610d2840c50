import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateTokenizer } from './estimate-tokenizer.ts';
import { TRUNCATION_MARKER, TRUNCATION_SUFFIX } from './prompt-layout.ts';
import { wordTokenizer } from './test-tokenizers.ts';
import { truncateTail } from './truncate-tail.ts';

const header = '## contexto_projeto\n';
const utf8RoundTrips = (text: string) =>
  new TextDecoder('utf-8', { fatal: true }).decode(new TextEncoder().encode(text)) === text;
// Multi-byte text: ASCII, 2-, 3- and 4-byte characters (surrogate pairs in UTF-16).
const multiByteText = fc.string({
  unit: fc.constantFrom('a', ' ', 'é', '€', '😀', '𝄞', '\n'),
  minLength: 1,
  maxLength: 400,
});

describe('truncateTail', () => {
  it('keeps a block that fits, header included', () => {
    const outcome = truncateTail(header, 'curto', 100, estimateTokenizer);
    expect(outcome).toEqual({
      status: 'kept',
      content: `${header}curto`,
      tokens: 7,
      estimated: true,
    });
  });

  it('cuts the tail and appends the marker on its own line', () => {
    // 20 header bytes + 19 marker bytes leave 9 of the 48 bytes (12 tokens) for the text.
    const outcome = truncateTail(header, 'a'.repeat(100), 12, estimateTokenizer);
    expect(outcome.status).toBe('truncated');
    expect(outcome.content).toBe(`${header}${'a'.repeat(9)}${TRUNCATION_SUFFIX}`);
    expect(outcome.tokens).toBe(12);
  });

  it('never cuts a surrogate pair in half', () => {
    const outcome = truncateTail(header, '😀'.repeat(50), 11, estimateTokenizer);
    expect(outcome.content.isWellFormed()).toBe(true);
    expect(outcome.content).toBe(`${header}😀${TRUNCATION_SUFFIX}`);
  });

  it('never returns more than the budget, even for empty text', () => {
    expect(truncateTail(header, '', 0, estimateTokenizer)).toMatchObject({
      status: 'dropped',
      tokens: 0,
    });
    expect(truncateTail(header, 'x', 0, estimateTokenizer)).toMatchObject({
      status: 'dropped',
      tokens: 0,
    });
  });

  it('drops the layer when not one character fits beside the marker', () => {
    const outcome = truncateTail(header, 'texto longo demais', 5, estimateTokenizer);
    expect(outcome).toEqual({ status: 'dropped', content: '', tokens: 0, estimated: true });
  });

  it('keeps the longest valid UTF-8 prefix that fits with the marker, within budget', () => {
    fc.assert(
      fc.property(multiByteText, fc.nat(200), (text, budget) => {
        const outcome = truncateTail(header, text, budget, estimateTokenizer);
        expect(outcome.tokens).toBeLessThanOrEqual(budget);
        expect(outcome.tokens).toBe(estimateTokenizer.count(outcome.content).tokens);
        if (outcome.status !== 'truncated') return;
        expect(outcome.content.endsWith(TRUNCATION_MARKER)).toBe(true);
        expect(outcome.content.isWellFormed() && utf8RoundTrips(outcome.content)).toBe(true);
        const kept = outcome.content.slice(header.length, -TRUNCATION_SUFFIX.length);
        expect(text.startsWith(kept)).toBe(true);
        const oneMore = text.slice(
          0,
          kept.length + (text.codePointAt(kept.length)! > 0xffff ? 2 : 1),
        );
        expect(
          estimateTokenizer.count(header + oneMore + TRUNCATION_SUFFIX).tokens,
        ).toBeGreaterThan(budget);
      }),
    );
  });

  it('holds the budget with a tokenizer that is not additive', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n'), maxLength: 300 }),
        fc.nat(40),
        (text, budget) => {
          const outcome = truncateTail(header, text, budget, wordTokenizer);
          expect(outcome.tokens).toBeLessThanOrEqual(budget);
          expect(outcome.tokens).toBe(wordTokenizer.count(outcome.content).tokens);
        },
      ),
    );
  });
});

describe('truncateTail at grapheme boundaries', () => {
  const kept = (text: string, budget: number) => {
    const outcome = truncateTail(header, text, budget, estimateTokenizer);
    return outcome.status === 'truncated'
      ? outcome.content.slice(header.length, -TRUNCATION_SUFFIX.length)
      : outcome.status;
  };

  it('never parts a letter from its combining accent, nor the halves of a flag', () => {
    const decomposed = 'cafe\u0301'.repeat(30); // "café" with the accent as its own code point
    for (let budget = 11; budget < 40; budget++)
      expect(kept(decomposed, budget).endsWith('e')).toBe(false);
    const flags = '🇧🇷🇵🇹'.repeat(20);
    for (let budget = 12; budget < 40; budget++) expect(kept(flags, budget).length % 4).toBe(0);
    expect(kept(flags, 12)).toBe('🇧🇷');
  });

  it('keeps whole graphemes of any text', () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    const pieces = fc.constantFrom('a', 'e\u0301', '🇧🇷', '👨‍👩‍👧', '한', ' ', '\r\n', 'ö');
    fc.assert(
      fc.property(
        fc.array(pieces, { minLength: 1, maxLength: 80 }),
        fc.nat(80),
        (parts, budget) => {
          const text = parts.join('');
          const prefix = kept(text, budget);
          if (prefix === 'dropped' || prefix === 'kept') return;
          const boundaries = new Set([...segmenter.segment(text)].map((segment) => segment.index));
          expect(boundaries.has(prefix.length)).toBe(true);
        },
      ),
    );
  });
});
