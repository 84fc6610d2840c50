import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitIntoWordDeltas } from './split-into-word-deltas.ts';

describe('splitIntoWordDeltas', () => {
  it('gives one delta per word, whitespace kept with the word before it', () => {
    expect(splitIntoWordDeltas('  Olá, mundo!\nTudo bem? ')).toEqual([
      '  Olá, ',
      'mundo!\n',
      'Tudo ',
      'bem? ',
    ]);
  });

  it('gives nothing for empty text and one delta for whitespace only', () => {
    expect(splitIntoWordDeltas('')).toEqual([]);
    expect(splitIntoWordDeltas(' \n')).toEqual([' \n']);
  });

  it('always joins back to the text, with no empty delta', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'ç', ' ', '\n', '\t', '🙂') }), (text) => {
        const deltas = splitIntoWordDeltas(text);
        expect(deltas.join('')).toBe(text);
        expect(deltas.every((delta) => delta.length > 0)).toBe(true);
      }),
    );
  });
});
