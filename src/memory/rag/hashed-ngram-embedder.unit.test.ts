import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { embedLocally, LOCAL_EMBEDDING_DIMENSION } from './hashed-ngram-embedder.ts';

const cosine = (left: number[], right: number[]) =>
  left.reduce((sum, value, index) => sum + value * right[index]!, 0);

describe('embedLocally', () => {
  it('gives a unit vector of the documented dimension, the same every time', () => {
    const vector = embedLocally('Sessão bloqueada: ação negada pelo time');
    expect(vector).toHaveLength(LOCAL_EMBEDDING_DIMENSION);
    expect(Math.hypot(...vector)).toBeCloseTo(1, 10);
    expect(embedLocally('Sessão bloqueada: ação negada pelo time')).toEqual(vector);
  });

  it('ignores case and accents, and ranks shared vocabulary above unrelated text', () => {
    expect(embedLocally('AÇÃO NEGADA')).toEqual(embedLocally('acao negada'));
    const query = embedLocally('sessão bloqueada, ação negada, impedimento');
    const related = embedLocally('O deploy ficou bloqueado: a ação de publicar foi negada');
    const unrelated = embedLocally('Receita de pão de fermentação natural');
    expect(cosine(query, related)).toBeGreaterThan(cosine(query, unrelated));
  });

  it('is the zero vector for text with no words', () => {
    expect(embedLocally(' ... ').every((value) => value === 0)).toBe(true);
  });

  it('always returns a unit or zero vector of finite numbers', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        const vector = embedLocally(text);
        expect(vector.every(Number.isFinite)).toBe(true);
        const norm = Math.hypot(...vector);
        expect(norm === 0 || Math.abs(norm - 1) < 1e-9).toBe(true);
      }),
    );
  });
});
