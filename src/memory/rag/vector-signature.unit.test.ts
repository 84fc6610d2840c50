import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { embedLocally } from './hashed-ngram-embedder.ts';
import { vectorSignature } from './vector-signature.ts';

const hamming = (left: string, right: string) =>
  [...left].filter((bit, index) => bit !== right[index]).length;

describe('vectorSignature', () => {
  it('is 256 bits, the same for the same vector', () => {
    const signature = vectorSignature(embedLocally('entrega antes das 6h'));
    expect(signature).toMatch(/^[01]{256}$/);
    expect(vectorSignature(embedLocally('entrega antes das 6h'))).toBe(signature);
  });

  it('puts similar texts closer than unrelated ones', () => {
    const rule = vectorSignature(embedLocally('Toda entrega acontece antes das 6h da manhã'));
    const near = vectorSignature(embedLocally('a entrega acontece antes das 6h'));
    const far = vectorSignature(embedLocally('o orçamento de tokens do projeto foi excedido'));
    expect(hamming(rule, near)).toBeLessThan(hamming(rule, far));
  });

  it('is a vector and its scaled copy alike (only the direction counts; powers of two scale exactly)', () => {
    // Components are 0 or far inside the normal range. Below 2^-1022 (subnormal) a power of two does not scale
    // exactly: 5e-324 × 0.25 is 0, so the "copy" is another direction, and a hyperplane's product with such a
    // component rounds differently from its product with twice it. Embeddings are unit vectors (the local
    // embedder normalises; providers return unit length), so no stored vector has components that small.
    const component = fc
      .double({ min: -1, max: 1, noNaN: true })
      .filter((value) => value === 0 || Math.abs(value) >= 1e-200);
    fc.assert(
      fc.property(
        fc.array(component, { minLength: 4, maxLength: 8 }),
        fc.constantFrom(0.25, 0.5, 2, 4, 8),
        (vector, scale) => {
          expect(vectorSignature(vector.map((value) => value * scale))).toBe(
            vectorSignature(vector),
          );
        },
      ),
    );
  });
});
