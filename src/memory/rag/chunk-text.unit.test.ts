import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkText } from './chunk-text.ts';

describe('chunkText', () => {
  it('keeps a short text whole, on one line', () => {
    expect(chunkText('Pão  fresco\nantes das 6h.')).toEqual(['Pão fresco antes das 6h.']);
    expect(chunkText(' \n\n ')).toEqual([]);
  });

  it('starts a new chunk at a paragraph once the current one is half full', () => {
    expect(chunkText('um dois três\n\nquatro', 20)).toEqual(['um dois três', 'quatro']);
    expect(chunkText('um\n\ndois', 20)).toEqual(['um dois']);
  });

  it('cuts a word longer than a chunk without splitting a character', () => {
    expect(chunkText('🚀🚀🚀🚀🚀', 2)).toEqual(['🚀🚀', '🚀🚀', '🚀']);
  });
});

describe('chunkText properties', () => {
  const text = fc
    .array(
      fc.oneof(
        fc.constantFrom(' ', '\n', '\n\n', '  '),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
      ),
      { maxLength: 60 },
    )
    .map((parts) => parts.join(''));

  it('never exceeds the limit, never yields an empty chunk, and loses no word', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 40 }), (input, max) => {
        const chunks = chunkText(input, max);
        for (const chunk of chunks) {
          expect(Array.from(chunk).length).toBeLessThanOrEqual(max);
          expect(chunk.trim()).not.toBe('');
        }
        const joined = (parts: string[]) => parts.join('').replace(/\s+/g, '');
        expect(joined(chunks)).toBe(joined([input]));
      }),
    );
  });
});
