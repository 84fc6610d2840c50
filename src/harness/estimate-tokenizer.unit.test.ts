import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateTokenizer } from './estimate-tokenizer.ts';
import { countJoined } from './tokenizer.ts';

const utf8Length = (text: string) => new TextEncoder().encode(text).length;

describe('estimateTokenizer', () => {
  it('counts ceil(utf8 bytes / 4) and flags every count as estimated', () => {
    expect(estimateTokenizer.count('')).toEqual({ tokens: 0, estimated: true });
    expect(estimateTokenizer.count('abcd')).toEqual({ tokens: 1, estimated: true });
    expect(estimateTokenizer.count('abcde')).toEqual({ tokens: 2, estimated: true });
    expect(estimateTokenizer.count('é')).toEqual({ tokens: 1, estimated: true }); // 2 bytes
    expect(estimateTokenizer.count('😀😀')).toEqual({ tokens: 2, estimated: true }); // 8 bytes
  });

  it('equals ceil(bytes / 4) for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(estimateTokenizer.count(text).tokens).toBe(Math.ceil(utf8Length(text) / 4));
      }),
    );
  });

  it('counts a concatenation exactly as if it had been built', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' })), (parts) => {
        expect(countJoined(estimateTokenizer, parts)).toEqual(
          estimateTokenizer.count(parts.join('')),
        );
      }),
    );
  });

  it('counts two lone surrogates that meet at a join as the one character they form', () => {
    const parts = ['a\ud83d', '\ude00b'];
    expect(countJoined(estimateTokenizer, parts)).toEqual(estimateTokenizer.count('a😀b'));
  });
});
